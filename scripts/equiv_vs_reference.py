#!/usr/bin/env python3
"""Checks the labels of a `saturate equiv` dataset (after AutoEval, seed 002)
against an independent reference: samples up to N rows (default 500) of
`equivalence_pl` and decides each pair by a truth table computed here, in
Python, with its own parser of the PL language; also samples `roundtrip_pl`
rows and checks that each gold restatement is equivalent to the shown
formula, uses only the vocabulary and is not the formula itself. Prints the
agreement and exits 1 on any disagreement.

The first-order configs (`equivalence_fol`, `roundtrip_fol`) are not
generated yet, so there is nothing to compare with eprover.

Usage: scripts/equiv_vs_reference.py DATASET [--sample 500] [--seed 0]
"""

import argparse
import glob
import itertools
import json
import os
import random
import sys

import pyarrow.parquet as pq


def tokens(text):
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("<==>", i):
            out.append("<==>")
            i += 4
        elif text.startswith("==>", i):
            out.append("==>")
            i += 3
        elif c in "()~&|":
            out.append(c)
            i += 1
        elif c.isalnum() or c == "_":
            j = i
            while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(text[i:j])
            i = j
        else:
            raise ValueError(f"unexpected {c!r} in {text!r}")
    return out


def parse(text):
    """The PL language: ~ > & > | > ==> > <==>, binary connectives to the right."""
    toks, pos = tokens(text), [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take(t=None):
        x = peek()
        if t is not None and x != t:
            raise ValueError(f"expected {t}, got {x} in {text!r}")
        pos[0] += 1
        return x

    levels = ["<==>", "==>", "|", "&"]

    def binary(k):
        left = binary(k + 1) if k + 1 < len(levels) else unary()
        if peek() == levels[k]:
            take()
            return (levels[k], left, binary(k))
        return left

    def unary():
        if peek() == "~":
            take()
            return ("~", unary())
        if peek() == "(":
            take()
            f = binary(0)
            take(")")
            return f
        t = take()
        if t == "true":
            return ("const", True)
        if t == "false":
            return ("const", False)
        if t is None or not t[0].isupper():
            raise ValueError(f"bad atom {t!r} in {text!r}")
        return ("atom", t)

    f = binary(0)
    if pos[0] != len(toks):
        raise ValueError(f"trailing tokens in {text!r}")
    return f


def atoms(f, out=None):
    out = set() if out is None else out
    if f[0] == "atom":
        out.add(f[1])
    elif f[0] != "const":
        for g in f[1:]:
            atoms(g, out)
    return out


def ev(f, v):
    op = f[0]
    if op == "atom":
        return v[f[1]]
    if op == "const":
        return f[1]
    if op == "~":
        return not ev(f[1], v)
    a, b = ev(f[1], v), ev(f[2], v)
    return {"&": a and b, "|": a or b, "==>": (not a) or b, "<==>": a == b}[op]


def equivalent(f, g):
    names = sorted(atoms(f) | atoms(g))
    for bits in itertools.product([False, True], repeat=len(names)):
        v = dict(zip(names, bits))
        if ev(f, v) != ev(g, v):
            return False
    return True


def rows(dataset, config):
    out = []
    for path in sorted(glob.glob(os.path.join(dataset, config, "*.parquet"))):
        out.extend(pq.read_table(path).to_pylist())
    for path in sorted(glob.glob(os.path.join(dataset, config, "*.jsonl"))):
        with open(path) as fh:
            out.extend(json.loads(line) for line in fh if line.strip())
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--sample", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    bad = 0

    eq = rows(args.dataset, "equivalence_pl")
    if not eq:
        sys.exit(f"{args.dataset}: no equivalence_pl rows")
    sample = rng.sample(eq, min(args.sample, len(eq)))
    agree, per_label = 0, {}
    for r in sample:
        m = json.loads(r["metadata"])
        ref = "True" if equivalent(parse(m["left"]), parse(m["right"])) else "False"
        per_label[r["answer"]] = per_label.get(r["answer"], 0) + 1
        if ref == r["answer"]:
            agree += 1
        else:
            bad += 1
            print(f"DISAGREE {r['id']}: label {r['answer']}, truth table {ref}")
    print(
        f"equivalence_pl: {agree}/{len(sample)} labels agree with the Python truth table "
        f"(sampled labels: {dict(sorted(per_label.items()))})"
    )

    rt = rows(args.dataset, "roundtrip_pl")
    if rt:
        sample = rng.sample(rt, min(args.sample, len(rt)))
        ok = 0
        for r in sample:
            m = json.loads(r["metadata"])
            f, g = parse(m["formula"]), parse(r["answer"])
            fine = equivalent(f, g) and atoms(g) <= set(m["vocabulary"]) and f != g
            ok += fine
            if not fine:
                bad += 1
                print(f"BAD GOLD {r['id']}: {r['answer']} for {m['formula']}")
        print(
            f"roundtrip_pl: {ok}/{len(sample)} gold restatements equivalent, "
            "in the vocabulary and not a copy (Python truth table)"
        )
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
