#!/usr/bin/env python3
"""A shallow reader's answers to proof reconstruction, scored by the real
scorer: how much of the task do surface features solve?

Usage: scripts/recon_baseline.py DATASET_DIR [--bin PATH] [--out DIR]

For every proof_reconstruction row of DATASET_DIR (a generated dataset, the
folder holding manifest.json), the baseline reads only what the prompt
shows: the clauses and the named starting premises. For each derived clause
it picks as parents the two clauses that look most like parents, ignoring
the logic: most literals shared with the child (up to variable names), then
fewest symbols missing from the child, then the smaller clause. Parents are
only drawn from clauses printed shorter than the child (ties by number), so
the answer is always acyclic and structurally valid; it fails only where
its steps are unsound or not the gold ones.

The answers are written to OUT/recon_baseline.jsonl (default: a temporary
folder) and scored with `saturate score --json`; printed per level: the
mean score (1 for a graph whose every step the scorer confirms, else 0),
the share of rows it solves outright (the same figure: the scorer gives no
credit to a graph with an unsound step), the edge precision against the gold
graph, and the mean share of sound steps (the `steps_sound` sub-metric).
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import pyarrow.parquet as pq

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def rows(dataset_dir):
    out = []
    pattern = os.path.join(dataset_dir, "proof_reconstruction", "*.parquet")
    for path in sorted(glob.glob(pattern)):
        out.extend(pq.read_table(path).to_pylist())
    return out


def literals(clause):
    """Top-level `|`-separated literals (no `|` occurs inside terms)."""
    return [lit.strip() for lit in clause.split("|")]


def normalize(lit):
    """Variables renamed X0, X1, ... in order of first occurrence."""
    names = {}

    def rename(m):
        word = m.group(0)
        if not word[0].isupper():
            return word
        names.setdefault(word, "V%d" % len(names))
        return names[word]

    return IDENT.sub(rename, lit)


def symbols(clause):
    return {w for w in IDENT.findall(clause) if not w[0].isupper()}


def baseline_answer(clauses, premises):
    n = len(clauses)
    derived = [i for i in range(1, n + 1) if i not in set(premises)]
    lits = [{normalize(l) for l in literals(c)} for c in clauses]
    syms = [symbols(c) for c in clauses]
    size = [(len(c), i + 1) for i, c in enumerate(clauses)]
    lines = []
    for c in derived:
        cands = [p for p in range(1, n + 1) if p != c and size[p - 1] < size[c - 1]]
        if len(cands) < 2:
            cands = [p for p in range(1, n + 1) if p != c]

        def key(p):
            shared = len(lits[p - 1] & lits[c - 1])
            missing = len(syms[p - 1] - syms[c - 1])
            return (-shared, missing, size[p - 1])

        a, b = sorted(sorted(cands, key=key)[:2])
        lines.append("%d <- %d, %d" % (c, a, b))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--bin", default="target/release/saturate")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    rs = rows(args.dataset)
    if not rs:
        sys.exit("no proof_reconstruction rows in %s" % args.dataset)
    out = args.out or tempfile.mkdtemp(prefix="recon-baseline-")
    os.makedirs(out, exist_ok=True)
    answers = os.path.join(out, "recon_baseline.jsonl")
    with open(answers, "w") as f:
        for r in rs:
            m = json.loads(r["metadata"])
            ans = baseline_answer(m["clauses"], m["premise_indices"])
            f.write(json.dumps({"id": r["id"], "answer": ans}) + "\n")
    res = subprocess.run(
        [args.bin, "score", "--dataset", args.dataset, "--answers", answers, "--json", "-q"],
        capture_output=True,
        text=True,
    )
    if res.returncode != 0:
        sys.exit("saturate score failed:\n" + res.stderr)
    json.loads(res.stdout)  # the summary must parse; per-row scores are read below
    scores = [json.loads(l) for l in open(answers + ".scores.jsonl")]
    by_level = {}
    level_of = {r["id"]: r["level"] for r in rs}
    for s in scores:
        by_level.setdefault(level_of[s["id"]], []).append(s)
    print("level  rows  baseline_score  exact_graph  edge_precision  steps_sound")
    for lv in sorted(by_level):
        ss = by_level[lv]
        mean = sum(s["score"] for s in ss) / len(ss)
        exact = sum(1 for s in ss if s["score"] == 1.0) / len(ss)
        prec = [s.get("metrics", {}).get("edge_precision", 0.0) for s in ss]
        sound = [s.get("metrics", {}).get("steps_sound", 0.0) for s in ss]
        print(
            "%5s %5d %15.3f %12.3f %15.3f %12.3f"
            % (lv, len(ss), mean, exact, sum(prec) / len(prec), sum(sound) / len(sound))
        )


if __name__ == "__main__":
    main()
