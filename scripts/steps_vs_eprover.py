#!/usr/bin/env python3
"""The derivation scorer's per-step checker against E: does each step follow
from the clauses it cites?

Usage: scripts/steps_vs_eprover.py DATASET_DIR [--sample N] [--seed S]
                                   [--bin PATH] [--cpu-limit SECONDS]

For every stepwise_derivation row of DATASET_DIR (a generated dataset, the
folder holding manifest.json) the gold chain is rewritten step by step, so
that no step is the certified one (the scorer would accept that without a
search) and about half of them do not follow:

- weaken: the clause gets one more literal, taken from a premise (it still
  follows from what it cites);
- drop: one literal of a clause of two or more is removed (it follows only
  sometimes);
- recite: one citation is replaced by another premise or earlier step.

The rewritten chains are scored by `saturate score` (the real scorer, its
per-step verdicts read from the scores file); then N steps (default 200),
drawn with a fixed seed, are each posed to `eprover` as a FOF problem: the
universal closures of the cited clauses as axioms, the step's closure as the
conjecture. Printed: the agreement on the steps both decided (ours `ok` vs
E's Theorem, ours `wrong` vs E's CounterSatisfiable), the steps each left
undecided, and every disagreement. Exit 1 on a disagreement.
"""

import argparse
import glob
import json
import os
import random
import re
import subprocess
import sys
import tempfile

import pyarrow.parquet as pq

VAR = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Za-z0-9_]*")
STEP = re.compile(r"^S(\d+): (.*) by (.*)$")


def rows(dataset_dir):
    out = []
    pattern = os.path.join(dataset_dir, "stepwise_derivation", "*.parquet")
    for path in sorted(glob.glob(pattern)):
        out.extend(pq.read_table(path).to_pylist())
    return out


def literals(clause):
    """Top-level `|`-separated literals (no `|` occurs inside terms)."""
    return [lit.strip() for lit in clause.split("|")]


def closure(clause):
    names = sorted(set(VAR.findall(clause)))
    body = "(" + clause + ")"
    return "! [%s] : %s" % (",".join(names), body) if names else body


def rewrite(row, rng):
    """The row's gold chain with every step rewritten (see the module)."""
    premises = json.loads(row["metadata"])["premises"]
    steps = []
    for line in row["answer"].splitlines():
        m = STEP.match(line.strip())
        if m:
            steps.append((m.group(2), [c.strip() for c in m.group(3).split(",")]))
    out = []
    for j, (clause, cites) in enumerate(steps, start=1):
        lits = literals(clause)
        kind = rng.choice(["weaken", "drop", "recite"])
        if kind == "drop" and len(lits) < 2:
            kind = "weaken"
        if kind == "weaken":
            extra = rng.choice(literals(rng.choice(premises)))
            clause = " | ".join(lits + [extra])
        elif kind == "drop":
            lits.pop(rng.randrange(len(lits)))
            clause = " | ".join(lits)
        else:
            pool = ["P%d" % i for i in range(1, len(premises) + 1)]
            pool += ["S%d" % k for k in range(1, j)]
            others = [c for c in pool if c not in cites]
            if others:
                cites = list(cites)
                cites[rng.randrange(len(cites))] = rng.choice(others)
        out.append((clause, cites, kind))
    return premises, out


def eprover(axioms, conjecture, cpu_limit, workdir, name):
    path = os.path.join(workdir, name + ".p")
    with open(path, "w") as f:
        for i, a in enumerate(axioms):
            f.write("fof(a%d, axiom, %s).\n" % (i, closure(a)))
        f.write("fof(goal, conjecture, %s).\n" % closure(conjecture))
    r = subprocess.run(
        ["eprover", "--auto", "-s", "--cpu-limit=%d" % cpu_limit, path],
        capture_output=True,
        text=True,
    )
    m = re.search(r"SZS status (\w+)", r.stdout)
    return m.group(1) if m else "NoStatus"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dataset")
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bin", default="target/release/saturate")
    ap.add_argument("--cpu-limit", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    data = rows(args.dataset)
    if not data:
        sys.exit("%s: no stepwise_derivation rows" % args.dataset)
    work = tempfile.mkdtemp(prefix="steps-vs-e-")
    answers = os.path.join(work, "answers.jsonl")
    chains = {}
    with open(answers, "w") as f:
        for row in data:
            premises, chain = rewrite(row, rng)
            chains[row["id"]] = (premises, chain)
            text = "".join(
                "S%d: %s by %s\n" % (j, c, ", ".join(cites))
                for j, (c, cites, _) in enumerate(chain, start=1)
            )
            f.write(json.dumps({"id": row["id"], "answer": text}) + "\n")
    scores = os.path.join(work, "scores.jsonl")
    subprocess.run(
        [args.bin, "score", "--dataset", args.dataset, "--answers", answers, "--out", scores],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    candidates = []
    with open(scores) as f:
        for line in f:
            s = json.loads(line)
            premises, chain = chains[s["id"]]
            for j, v in enumerate(s.get("steps", []), start=1):
                if v["verdict"] not in ("ok", "wrong", "timeout"):
                    continue
                clause, cites, kind = chain[j - 1]
                cited = []
                for c in cites:
                    cited.append(premises[int(c[1:]) - 1] if c[0] == "P" else chain[int(c[1:]) - 1][0])
                candidates.append((s["id"], j, kind, cited, clause, v["verdict"]))
    rng.shuffle(candidates)
    sample = candidates[: args.sample]
    agree = decided = ours_undecided = e_undecided = 0
    kinds = {}
    bad = []
    for n, (rid, j, kind, cited, clause, ours) in enumerate(sample):
        e = eprover(cited, clause, args.cpu_limit, work, "s%d" % n)
        e_label = {"Theorem": "ok", "CounterSatisfiable": "wrong"}.get(e)
        k = kinds.setdefault(kind, [0, 0])
        k[0] += 1
        if ours == "timeout":
            ours_undecided += 1
            continue
        if e_label is None:
            e_undecided += 1
            continue
        decided += 1
        if e_label == ours:
            agree += 1
            k[1] += 1
        else:
            bad.append("%s S%d (%s): ours %s, E %s: %s |- %s" % (rid, j, kind, ours, e, cited, clause))
    print("steps sampled: %d of %d (%s rows)" % (len(sample), len(candidates), len(data)))
    print("by rewrite: " + ", ".join("%s %d" % (k, v[0]) for k, v in sorted(kinds.items())))
    ok = sum(1 for c in sample if c[5] == "ok")
    print("our verdicts: ok %d, wrong %d, timeout %d" % (ok, len(sample) - ok - ours_undecided, ours_undecided))
    print("E undecided (ours decided): %d" % e_undecided)
    print("agreement on steps both decided: %d / %d" % (agree, decided))
    for b in bad:
        print("DISAGREE " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
