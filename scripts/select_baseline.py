#!/usr/bin/env python3
"""No-reasoning answers to premise selection, scored by the real scorer.

Usage: scripts/select_baseline.py DATASET_DIR [--bin PATH] [--out DIR]

DATASET_DIR is a generated TPTP dataset (the folder holding
premise_selection/). Each reader looks only at the prompt's text (the
theorem and the numbered pool) and the level:

- whole:    the whole pool (a sufficient superset of every answer);
- plus_one: the gold answer plus one pool clause outside it (the best a
            superset can do; an upper bound for any superset strategy);
- closer:   near-twin pairs are found by token edit distance (variables
            named alike); from each pair the clause closer to the theorem
            is kept (see `closeness`), clauses in no pair are left out;
- sized:    every clause ranked by closeness, the farther clause of each
            near-twin pair dropped, and the top `pool size - k` taken, k
            being the level's distractor count of the config (the gold
            size exactly when every row of a level has k distractors).

Closeness to the theorem, compared in this order: literals that are
generalisations of a theorem literal of the same sign (one-way matching),
literals equal to a theorem literal up to variable names, non-variable
subterms that generalise a theorem subterm, symbols shared with the theorem,
fewer symbols the theorem lacks.

Printed per level: rows, the correlation of pool size with gold size, each
reader's mean score (the scorer's main value), and for `closer` the share of
near-twin pairs holding one gold clause in which it kept the gold one (0.5
is a coin).
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

LEVEL_K = {1: 2, 2: 4, 3: 6, 4: 8}
TOKEN = re.compile(r"[A-Za-z_$][A-Za-z0-9_]*|!=|[=(),~|]")


def rows(dataset_dir):
    out = []
    for path in sorted(glob.glob(os.path.join(dataset_dir, "premise_selection", "*.parquet"))):
        out.extend(pq.read_table(path).to_pylist())
    return out


# ---- terms ---------------------------------------------------------------


def is_var(name):
    return name[0].isupper()


def parse_term(toks, i):
    name = toks[i]
    i += 1
    if i < len(toks) and toks[i] == "(":
        args = []
        i += 1
        while True:
            a, i = parse_term(toks, i)
            args.append(a)
            if toks[i] == ",":
                i += 1
                continue
            assert toks[i] == ")", toks[i:]
            i += 1
            break
        return (name, tuple(args)), i
    return (name, ()) if not is_var(name) else name, i


def parse_literal(text):
    """(positive, kind, sides): kind '=' for equations, 'p' for atoms."""
    toks = TOKEN.findall(text)
    pos = True
    i = 0
    if toks and toks[0] == "~":
        pos = False
        i = 1
    lhs, i = parse_term(toks, i)
    if i < len(toks) and toks[i] in ("=", "!="):
        if toks[i] == "!=":
            pos = not pos
        rhs, _ = parse_term(toks, i + 1)
        return (pos, "=", (lhs, rhs))
    return (pos, "p", (lhs,))


def parse_clause(text):
    return [parse_literal(l.strip()) for l in text.split("|")]


def match(p, t, sub):
    """One-way matching of pattern p onto term t, extending sub."""
    if isinstance(p, str):
        if p in sub:
            return sub if sub[p] == t else None
        s = dict(sub)
        s[p] = t
        return s
    if isinstance(t, str) or p[0] != t[0] or len(p[1]) != len(t[1]):
        return None
    for a, b in zip(p[1], t[1]):
        sub = match(a, b, sub)
        if sub is None:
            return None
    return sub


def literal_matches(pl, tl):
    if pl[0] != tl[0] or pl[1] != tl[1]:
        return False
    if pl[1] == "p":
        return match(pl[2][0], tl[2][0], {}) is not None
    (a, b), (c, d) = pl[2], tl[2]
    for x, y in ((c, d), (d, c)):
        s = match(a, x, {})
        if s is not None and match(b, y, s) is not None:
            return True
    return False


def rename(t, names):
    if isinstance(t, str):
        names.setdefault(t, "V%d" % len(names))
        return names[t]
    return (t[0], tuple(rename(a, names) for a in t[1]))


def literal_key(l):
    names = {}
    sides = tuple(rename(s, names) for s in l[2])
    if l[1] == "=":
        alt_names = {}
        alt = tuple(rename(s, alt_names) for s in reversed(l[2]))
        sides = min(sides, alt, key=repr)
    return (l[0], l[1], repr(sides))


def subterms(t, out):
    if isinstance(t, str):
        return
    out.append(t)
    for a in t[1]:
        subterms(a, out)


def symbols(t, out):
    if isinstance(t, str):
        return
    out.add(t[0])
    for a in t[1]:
        symbols(a, out)


def clause_parts(text):
    lits = parse_clause(text)
    subs, syms = [], set()
    for l in lits:
        for s in l[2]:
            subterms(s, subs)
            symbols(s, syms)
    return lits, subs, syms


def closeness(clause, theorem):
    lits, subs, syms = clause_parts(clause)
    tlits, tsubs, tsyms = clause_parts(theorem)
    tkeys = {literal_key(l) for l in tlits}
    general = sum(1 for l in lits if any(literal_matches(l, t) for t in tlits))
    equal = sum(1 for l in lits if literal_key(l) in tkeys)
    sub_general = sum(1 for s in subs if any(match(s, t, {}) is not None for t in tsubs))
    return (general, equal, sub_general, len(syms & tsyms), -len(syms - tsyms))


# ---- near twins ----------------------------------------------------------


def tokens(text):
    return ["V" if is_var(t) and t[0].isalpha() else t for t in TOKEN.findall(text)]


def lev(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def twin_pairs(pool):
    toks = [tokens(c) for c in pool]
    cands = []
    for i in range(len(pool)):
        for j in range(i + 1, len(pool)):
            if pool[i].count("|") != pool[j].count("|"):
                continue
            d = lev(toks[i], toks[j])
            if d <= max(2, len(toks[i]) // 4):
                cands.append((d, i, j))
    used, pairs = set(), []
    for d, i, j in sorted(cands):
        if i not in used and j not in used:
            used |= {i, j}
            pairs.append((i, j))
    return pairs


# ---- readers -------------------------------------------------------------


def fmt(ix):
    return "[" + ", ".join(str(i) for i in sorted(ix)) + "]"


def readers(r, stats):
    m = json.loads(r["metadata"])
    pool, theorem = m["pool"], m["theorem"]
    gold = {int(x) for x in r["answer"].strip("[]").split(",")}
    n = len(pool)
    close = [closeness(c, theorem) for c in pool]
    pairs = twin_pairs(pool)
    keep, drop = set(), set()
    for i, j in pairs:
        a, b = (i, j) if close[i] >= close[j] else (j, i)
        keep.add(a + 1)
        drop.add(b + 1)
        if (i + 1 in gold) != (j + 1 in gold):
            stats["pairs"] += 1
            stats["pair_hits"] += (a + 1) in gold
            stats["pair_ties"] += close[i] == close[j]
    out = {"whole": fmt(range(1, n + 1))}
    extra = min(set(range(1, n + 1)) - gold, default=None)
    out["plus_one"] = fmt(gold | {extra}) if extra else r["answer"]
    if not keep:
        keep = {max(range(1, n + 1), key=lambda i: close[i - 1])}
    out["closer"] = fmt(keep)
    size = max(1, n - LEVEL_K.get(int(r["level"]), 0))
    ranked = sorted(
        (i for i in range(1, n + 1) if i not in drop),
        key=lambda i: close[i - 1],
        reverse=True,
    )
    out["sized"] = fmt(ranked[:size] or [1])
    return out


def corr(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return float("nan")
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sxx * syy) ** 0.5


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--bin", default="target/release/saturate")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    rs = rows(args.dataset)
    if not rs:
        sys.exit("no premise_selection rows in %s" % args.dataset)
    out = args.out or tempfile.mkdtemp(prefix="select-baseline-")
    os.makedirs(out, exist_ok=True)
    names = ["whole", "plus_one", "closer", "sized", "gold"]
    files = {k: open(os.path.join(out, "select_%s.jsonl" % k), "w") for k in names}
    stats = {}
    sizes = {}
    for r in rs:
        lv = int(r["level"])
        st = stats.setdefault(lv, {"pairs": 0, "pair_hits": 0, "pair_ties": 0})
        ans = readers(r, st)
        ans["gold"] = r["answer"]
        for k in names:
            files[k].write(json.dumps({"id": r["id"], "answer": ans[k]}) + "\n")
        m = json.loads(r["metadata"])
        sizes.setdefault(lv, []).append((len(m["pool"]), len(r["answer"].split(","))))
    for f in files.values():
        f.close()
    level_of = {r["id"]: int(r["level"]) for r in rs}
    table = {}
    for k in names:
        path = os.path.join(out, "select_%s.jsonl" % k)
        res = subprocess.run(
            [args.bin, "score", "--dataset", args.dataset, "--answers", path, "--json", "-q"],
            capture_output=True,
            text=True,
        )
        if res.returncode != 0:
            sys.exit("saturate score failed:\n" + res.stderr)
        for line in open(path + ".scores.jsonl"):
            s = json.loads(line)
            cell = table.setdefault(level_of[s["id"]], {}).setdefault(k, [])
            cell.append((s["score"], s.get("verdict")))
    print("level rows corr(pool,gold) " + " ".join("%8s" % k for k in names) + "  pair_hits")
    for lv in sorted(table):
        ps, gs = zip(*sizes[lv])
        cells = " ".join("%8.3f" % (sum(x for x, _ in table[lv][k]) / len(table[lv][k])) for k in names)
        st = stats[lv]
        hits = "%d/%d (ties %d)" % (st["pair_hits"], st["pairs"], st["pair_ties"])
        print("%5d %4d %15.2f %s  %s" % (lv, len(ps), corr(ps, gs), cells, hits))
        bad = [v for _, v in table[lv]["gold"] if v != "ok"]
        if bad:
            print("      gold verdicts not ok: %s" % bad)


if __name__ == "__main__":
    main()
