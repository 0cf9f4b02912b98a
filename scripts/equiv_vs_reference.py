#!/usr/bin/env python3
"""Checks the labels of a `saturate equiv` dataset (after AutoEval, seed 002)
against an independent reference: samples up to N rows (default 500) of
`equivalence_pl` and decides each pair by a truth table computed here, in
Python, with its own parser of the PL language; also samples `roundtrip_pl`
rows and checks that each gold restatement is equivalent to the shown
formula, uses only the vocabulary and is not the formula itself.

First-order half (`equivalence_fol`, `roundtrip_fol`): each sampled pair
is put to E (`eprover --auto`, a CPU limit per call) in both directions,
`fof(l, axiom, L). fof(r, conjecture, R).` and the converse; a True label
agrees when E proves both, a False label when E does not prove the
direction the row's countermodel refutes (E's CounterSatisfiable counted
apart). Every stored countermodel is also evaluated here, on both
formulas, with a TPTP FOF reader and a Tarski evaluator of its own. Gold
restatements are proved equivalent to the shown formula by E. Prints the
agreement and exits 1 on any disagreement (a call E leaves undecided is
counted, not a disagreement).

Usage: scripts/equiv_vs_reference.py DATASET [--sample 500] [--seed 0]
           [--eprover eprover] [--cpu-limit 5]
"""

import argparse
import glob
import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile

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


# --- first-order: a TPTP FOF reader, Tarski evaluation, and E -------------

FOL_TOKEN = re.compile(
    r"\s*(<=>|<~>|=>|<=|~\||~&|!=|\$true|\$false|[()\[\],:!?~&|=]|[A-Za-z][A-Za-z0-9_]*)"
)


def fol_tokens(text):
    text = text.strip().rstrip(".")
    out, i = [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        m = FOL_TOKEN.match(text, i)
        if not m:
            raise ValueError(f"unexpected {text[i]!r} in {text!r}")
        out.append(m.group(1))
        i = m.end()
    return out


def fol_parse(text):
    """fof_logic_formula: unit (binop unit | (& unit)+ | (| unit)+)?"""
    toks, pos = fol_tokens(text), [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take(t=None):
        x = peek()
        if t is not None and x != t:
            raise ValueError(f"expected {t}, got {x} in {text!r}")
        pos[0] += 1
        return x

    def term():
        t = take()
        if t is None or not t[0].isalpha():
            raise ValueError(f"bad term {t!r} in {text!r}")
        if t[0].isupper():
            return ("var", t)
        args = []
        if peek() == "(":
            take()
            args.append(term())
            while peek() == ",":
                take()
                args.append(term())
            take(")")
        return ("fn", t, tuple(args))

    def unit():
        t = peek()
        if t == "~":
            take()
            return ("~", unit())
        if t in ("!", "?"):
            take()
            take("[")
            vs = [take()]
            while peek() == ",":
                take()
                vs.append(take())
            take("]")
            take(":")
            body = unit()
            for v in reversed(vs):
                body = (t, v, body)
            return body
        if t == "(":
            take()
            f = logic()
            take(")")
            return f
        if t in ("$true", "$false"):
            take()
            return ("const", t == "$true")
        lhs = term()
        if peek() == "=":
            take()
            return ("=", lhs, term())
        if peek() == "!=":
            take()
            return ("~", ("=", lhs, term()))
        if lhs[0] != "fn":
            raise ValueError(f"a variable is not a formula in {text!r}")
        return ("pred", lhs[1], lhs[2])

    def logic():
        f = unit()
        t = peek()
        if t in ("&", "|"):
            while peek() == t:
                take()
                f = (t, f, unit())
            return f
        if t in ("<=>", "<~>", "=>", "<=", "~|", "~&"):
            take()
            g = unit()
            return {
                "<=>": ("<=>", f, g),
                "<~>": ("~", ("<=>", f, g)),
                "=>": ("=>", f, g),
                "<=": ("=>", g, f),
                "~|": ("~", ("|", f, g)),
                "~&": ("~", ("&", f, g)),
            }[t]
        return f

    f = logic()
    if pos[0] != len(toks):
        raise ValueError(f"trailing tokens in {text!r}")
    return f


def fol_eval(f, model, env):
    size = model["size"]

    def table(kind, name, arity):
        for t in model[kind]:
            if t["name"] == name and t["arity"] == arity:
                return t["values"]
        return None

    def term(t):
        if t[0] == "var":
            return env[t[1]]
        vals = [term(a) for a in t[2]]
        tab = table("functions", t[1], len(vals))
        if tab is None:
            return 0
        idx = 0
        for v in vals:
            idx = idx * size + v
        return tab[idx]

    op = f[0]
    if op == "const":
        return f[1]
    if op == "pred":
        vals = [term(a) for a in f[2]]
        tab = table("predicates", f[1], len(vals))
        idx = 0
        for v in vals:
            idx = idx * size + v
        return tab is not None and tab[idx] == 1
    if op == "=":
        return term(f[1]) == term(f[2])
    if op == "~":
        return not fol_eval(f[1], model, env)
    if op in ("!", "?"):
        vals = []
        for e in range(size):
            inner = dict(env)
            inner[f[1]] = e
            vals.append(fol_eval(f[2], model, inner))
        return all(vals) if op == "!" else any(vals)
    a, b = fol_eval(f[1], model, env), fol_eval(f[2], model, env)
    return {"&": a and b, "|": a or b, "=>": (not a) or b, "<=>": a == b}[op]


def eprover(premise, conclusion, exe, cpu):
    """E's SZS status for premise |= conclusion."""
    text = f"fof(l, axiom, {premise}).\nfof(r, conjecture, {conclusion}).\n"
    with tempfile.NamedTemporaryFile("w", suffix=".p", delete=False) as fh:
        fh.write(text)
        path = fh.name
    try:
        out = subprocess.run(
            [exe, "--auto", f"--cpu-limit={cpu}", "-s", path],
            capture_output=True,
            text=True,
        ).stdout
    finally:
        os.unlink(path)
    m = re.search(r"SZS status (\w+)", out)
    return m.group(1) if m else "NoStatus"


def check_fol(args, rng):
    """Returns the number of disagreements on the first-order configs."""
    bad = 0
    eq = rows(args.dataset, "equivalence_fol")
    if eq:
        sample = rng.sample(eq, min(args.sample, len(eq)))
        tally = {}
        for r in sample:
            m = json.loads(r["metadata"])
            cert = json.loads(r["certificate"])
            left, right = m["left"], m["right"]
            if r["answer"] == "True":
                a = eprover(left, right, args.eprover, args.cpu_limit)
                b = eprover(right, left, args.eprover, args.cpu_limit)
                if a == b == "Theorem":
                    key = "True: E proves both directions"
                elif "CounterSatisfiable" in (a, b):
                    key = "True: E finds a counter-satisfiable direction"
                    bad += 1
                    print(f"DISAGREE {r['id']}: label True, E {a}/{b}: {left} vs {right}")
                else:
                    key = "True: E undecided"
            else:
                model = cert["countermodel"]
                lv = fol_eval(fol_parse(left), model, {})
                rv = fol_eval(fol_parse(right), model, {})
                if lv == rv:
                    bad += 1
                    print(f"BAD COUNTERMODEL {r['id']}: both sides {lv}")
                # The refuted direction: the true side does not entail the false one.
                prem, concl = (left, right) if lv else (right, left)
                e = eprover(prem, concl, args.eprover, args.cpu_limit)
                if e == "Theorem":
                    key = "False: E proves the refuted direction"
                    bad += 1
                    print(f"DISAGREE {r['id']}: label False, E proves {prem} |= {concl}")
                elif e == "CounterSatisfiable":
                    key = "False: E CounterSatisfiable"
                else:
                    key = "False: E undecided (countermodel checked here)"
            tally[key] = tally.get(key, 0) + 1
        decided = sum(v for k, v in tally.items() if "undecided" not in k)
        print(
            f"equivalence_fol: {len(sample)} pairs, every countermodel re-evaluated here; "
            f"E decided {decided}: {dict(sorted(tally.items()))}"
        )
    rt = rows(args.dataset, "roundtrip_fol")
    if rt:
        sample = rng.sample(rt, min(args.sample, len(rt)))
        proved, undecided = 0, 0
        for r in sample:
            m = json.loads(r["metadata"])
            f, g = m["formula"], r["answer"]
            if fol_parse(f) == fol_parse(g):
                bad += 1
                print(f"BAD GOLD {r['id']}: a copy of the formula")
                continue
            a = eprover(f, g, args.eprover, args.cpu_limit)
            b = eprover(g, f, args.eprover, args.cpu_limit)
            if a == b == "Theorem":
                proved += 1
            elif "CounterSatisfiable" in (a, b):
                bad += 1
                print(f"BAD GOLD {r['id']}: E {a}/{b} for {g} vs {f}")
            else:
                undecided += 1
        print(
            f"roundtrip_fol: {proved}/{len(sample)} gold restatements proved equivalent "
            f"by E in both directions ({undecided} undecided)"
        )
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--sample", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eprover", default="eprover")
    ap.add_argument("--cpu-limit", type=int, default=5)
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
    bad += check_fol(args, rng)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
