#!/usr/bin/env python3
"""Does the gap's position tell an EQ gap-filling decoy? Scored by the real
scorer.

Usage: scripts/gf_position_baseline.py DATASET_DIR [--bin PATH] [--out DIR]

DATASET_DIR is an `saturate eq` output folder (holding eq_gf/). Each rule
reads only where the gap sits in the shown proof and calls the gap
unfillable (`"missingSteps": []`) when it fires:

- last:   the gap ends directly before the proof's last line;
- first:  the gap starts directly after the first line;
- middle: neither;
- long:   the gap hides three or more lines.

Where a rule does not fire, the reader is credited with a perfect filler:
the gold lines on a fillable gap, a fill that fails on a decoy (it cannot
fill what has no fill). So each rule's score is the accuracy of "unfillable
iff the rule fires" on the fillable/decoy label, next to `never` (always
fill: the fillable share, the majority baseline). A rule far above `never`
reads the label from the position. Answers are written to
OUT/gf_<rule>.jsonl and scored with `saturate score --json`.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

import pyarrow.parquet as pq

EMPTY = json.dumps({"explanation": "position", "missingSteps": [], "confidence": 3})


def rows(dataset_dir):
    out = []
    for path in sorted(glob.glob(os.path.join(dataset_dir, "eq_gf", "*.parquet"))):
        out.extend(pq.read_table(path).to_pylist())
    return out


def gap(r):
    inst = json.loads(r["metadata"])["instance"]
    n = len(inst["proof"]["terms"]) - 1  # index of the last line
    return inst["gapStart"], inst["gapLen"], n, inst["decoy"]


RULES = {
    "never": lambda s, g, n: False,
    "last": lambda s, g, n: s + g == n,
    "first": lambda s, g, n: s == 1,
    "middle": lambda s, g, n: s != 1 and s + g != n,
    "long": lambda s, g, n: g >= 3,
}


def answer(r, fires):
    s, g, n, decoy = gap(r)
    if fires:
        return EMPTY
    if not decoy:
        return r["answer"]
    # A fill on a decoy fails whatever it says: repeat the line before.
    inst = json.loads(r["metadata"])["instance"]
    before = inst["proof"]["terms"][s - 1]
    cites = inst["proof"]["citations"][s - 1] or ["E1"]
    return json.dumps(
        {
            "explanation": "fill",
            "missingSteps": [{"term": before, "supportingEquations": cites[:1]}],
            "confidence": 3,
        }
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--bin", default="target/release/saturate")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    rs = rows(args.dataset)
    if not rs:
        sys.exit("no eq_gf rows in %s" % args.dataset)
    out = args.out or tempfile.mkdtemp(prefix="gf-position-")
    os.makedirs(out, exist_ok=True)
    level_of = {r["id"]: r["level"] for r in rs}
    table = {}
    for name, rule in RULES.items():
        path = os.path.join(out, "gf_%s.jsonl" % name)
        with open(path, "w") as f:
            for r in rs:
                s, g, n, _ = gap(r)
                f.write(json.dumps({"id": r["id"], "answer": answer(r, rule(s, g, n))}) + "\n")
        res = subprocess.run(
            [args.bin, "score", "--dataset", args.dataset, "--answers", path, "--json", "-q"],
            capture_output=True,
            text=True,
        )
        if res.returncode != 0:
            sys.exit("saturate score failed:\n" + res.stderr)
        for line in open(path + ".scores.jsonl"):
            s = json.loads(line)
            table.setdefault(level_of[s["id"]], {}).setdefault(name, []).append(s["score"])
    decoys = {}
    for r in rs:
        decoys.setdefault(r["level"], []).append(gap(r)[3])
    print("level  rows  decoys  " + "  ".join("%7s" % n for n in RULES))
    for lv in sorted(table):
        cells = "  ".join("%7.3f" % (sum(v) / len(v)) for v in (table[lv][n] for n in RULES))
        print("%5s %5d %7d  %s" % (lv, len(decoys[lv]), sum(decoys[lv]), cells))


if __name__ == "__main__":
    main()
