#!/usr/bin/env python3
"""Shallow-reader tells in a generated PL1 or EQ dataset (issue 16 item 2).

PL1 (configs pl1_*): per level, the share of instances whose source premises
or goal contain a degenerate sub-formula (`x op x`: the same operand on both
sides of a binary connective; or complementary operands, `x op ~x` /
`~x op x`), the share with a non-atomic sub-formula that is a tautology or a
contradiction by truth table, and the mean number of source premises.

EQ gap filling (config eq_gf): per level, the decoy share, the majority
baseline, and the accuracy of the rule "unfillable iff a symbol of the line
after the gap occurs neither in the equations nor in a line before the gap".
EQ proof checking (eq_pc) and elided-equation recovery (eq_er): the same
fresh-symbol rule applied to each shown line (a symbol met for the first time
in that line and absent from every equation), against the labels.

Usage: python3 scripts/shallow_tells.py DATASET_DIR [--json]
Needs: pyarrow.
"""

import itertools
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq

# ---------------------------------------------------------------- PL formulas


def tokens(text):
    return re.findall(r"<==>|==>|[()~&|]|[A-Za-z_][A-Za-z0-9_]*", text)


def parse(text):
    """Parses the canonical printer's fully parenthesised form into tuples:
    ('atom', name), ('~', p), (op, p, q)."""
    toks = tokens(text)
    pos = 0

    def formula():
        nonlocal pos
        t = toks[pos]
        if t == "(":
            pos += 1
            if toks[pos] == "~":
                pos += 1
                p = formula()
                node = ("~", p)
            else:
                p = formula()
                op = toks[pos]
                pos += 1
                q = formula()
                node = (op, p, q)
            assert toks[pos] == ")", text
            pos += 1
            return node
        pos += 1
        return ("atom", t)

    f = formula()
    assert pos == len(toks), text
    return f


def subformulas(f):
    yield f
    if f[0] == "~":
        yield from subformulas(f[1])
    elif f[0] != "atom":
        yield from subformulas(f[1])
        yield from subformulas(f[2])


def atoms(f, out):
    if f[0] == "atom":
        if f[1] not in ("true", "false"):
            out.add(f[1])
    else:
        for g in f[1:]:
            atoms(g, out)
    return out


def evaluate(f, v):
    k = f[0]
    if k == "atom":
        return {"true": True, "false": False}.get(f[1], v.get(f[1]))
    if k == "~":
        return not evaluate(f[1], v)
    a, b = evaluate(f[1], v), evaluate(f[2], v)
    return {"&": a and b, "|": a or b, "==>": (not a) or b, "<==>": a == b}[k]


def complementary(p, q):
    return (p[0] == "~" and p[1] == q) or (q[0] == "~" and q[1] == p)


def syntactic_degenerate(f):
    return any(
        g[0] not in ("atom", "~") and (g[1] == g[2] or complementary(g[1], g[2]))
        for g in subformulas(f)
    )


def semantic_trivial(f):
    for g in subformulas(f):
        if g[0] == "atom":
            continue
        names = sorted(atoms(g, set()))
        values = {
            evaluate(g, dict(zip(names, bits)))
            for bits in itertools.product([False, True], repeat=len(names))
        }
        if len(values) == 1:
            return True
    return False


def pl_report(rows):
    by_level = defaultdict(lambda: {"n": 0, "xopx": 0, "trivial": 0, "premises": 0})
    for r in rows:
        m = json.loads(r["metadata"])
        forms = [parse(s) for s in m["source_premises"]] + [parse(m["source_goal"])]
        s = by_level[int(r["level"])]
        s["n"] += 1
        s["xopx"] += any(syntactic_degenerate(f) for f in forms)
        s["trivial"] += any(semantic_trivial(f) for f in forms)
        s["premises"] += len(m["source_premises"])
    out = {}
    for level, s in sorted(by_level.items()):
        out[level] = {
            "rows": s["n"],
            "share_x_op_x": s["xopx"] / s["n"],
            "share_trivial_subformula": s["trivial"] / s["n"],
            "mean_premises": s["premises"] / s["n"],
        }
    return out


# ---------------------------------------------------------------- EQ


SYMBOL = re.compile(r"\b([a-z][A-Za-z0-9_]*)\b")


def symbols(text):
    return set(SYMBOL.findall(text))


def gf_report(rows):
    by_level = defaultdict(lambda: {"n": 0, "decoys": 0, "rule_right": 0})
    for r in rows:
        m = json.loads(r["metadata"])
        inst = m["instance"]
        proof = inst["proof"]
        start, length = inst["gapStart"], inst["gapLen"]
        known = set()
        for _, text in proof["equations"]:
            known |= symbols(text)
        for t in proof["terms"][:start]:
            known |= symbols(t)
        after = symbols(proof["terms"][start + length])
        predicted_decoy = bool(after - known)
        s = by_level[int(r["level"])]
        s["n"] += 1
        s["decoys"] += bool(inst["decoy"])
        s["rule_right"] += predicted_decoy == bool(inst["decoy"])
    out = {}
    for level, s in sorted(by_level.items()):
        share = s["decoys"] / s["n"]
        out[level] = {
            "rows": s["n"],
            "decoy_share": share,
            "majority_baseline": max(share, 1 - share),
            "fresh_symbol_rule_accuracy": s["rule_right"] / s["n"],
        }
    return out


def line_rule_report(rows):
    """Per row: does some shown line introduce a symbol absent from every
    equation and every earlier line? Cross-tabulated with the label."""
    table = defaultdict(int)
    for r in rows:
        m = json.loads(r["metadata"])
        inst = m["instance"]
        proof = inst["proof"]
        known = set()
        for _, text in proof["equations"]:
            known |= symbols(text)
        fresh = False
        for i, t in enumerate(proof["terms"]):
            syms = symbols(t)
            if i > 0 and syms - known:
                fresh = True
            known |= syms
        label = json.loads(r["certificate"]).get("verdict", "?")
        table[f"{label}/fresh={fresh}"] += 1
    return dict(sorted(table.items()))


# ---------------------------------------------------------------- main


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = Path(sys.argv[1])
    rows_by_task = defaultdict(list)
    for shard in sorted(root.rglob("*.parquet")):
        for r in pq.read_table(shard).to_pylist():
            rows_by_task[r["task"]].append(r)
    report = {}
    pl1 = [r for t, rs in rows_by_task.items() if t.startswith("pl1") for r in rs]
    if pl1:
        report["pl1"] = pl_report(pl1)
    if rows_by_task.get("eq_gf"):
        report["eq_gf"] = gf_report(rows_by_task["eq_gf"])
    for task in ("eq_pc", "eq_er"):
        if rows_by_task.get(task):
            report[f"{task}_fresh_symbol_lines"] = line_rule_report(rows_by_task[task])
    if "--json" in sys.argv:
        print(json.dumps(report, indent=1))
        return
    for name, section in report.items():
        print(f"== {name}")
        for key, value in section.items():
            print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
