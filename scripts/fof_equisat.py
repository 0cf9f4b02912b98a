#!/usr/bin/env python3
"""Equisatisfiability of saturate's clausification, checked by E prover.

For each FOF axiom file of a TPTP root (default ../shared/tptp-fof), take
the input clauses `saturate derive --max-processed 0` prints and ask E:

  clauses => formulas   for each original formula F (its text as the file
                        has it): clauses + conjecture F. A Theorem shows that
                        every model of the clauses is a model of F, so a
                        satisfiable clause set means satisfiable formulas.
  formulas => clauses   for each clause C: the original file + conjecture
                        ![X..]: ?[Y..]: C', where C' is C with each literal
                        of a definition symbol def<N>(t..) replaced by the
                        definition's body (from its `definition` line, its
                        parameters bound to t.., its bound variables renamed
                        apart) and then each Skolem term by its own
                        existential variable. A Theorem shows that the
                        formulas force a witness for C (what the Skolem
                        function picks, the definition read as its body), so
                        a model of the formulas expands to one of each
                        clause.

E answers within --cpu-limit (default 10 s) or the check counts as
undecided. Prints one row per file and totals; exits 1 if E ever finds a
counter-model (CounterSatisfiable), which would be a clausification bug.

    scripts/fof_equisat.py [ROOT] [E_CPU_SECONDS]
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else "../shared/tptp-fof"
ECPU = sys.argv[2] if len(sys.argv) > 2 else "10"
BIN = os.environ.get("SATURATE", "target/release/saturate")


def annotated(text, keyword):
    """The annotated formulas `keyword(...)` of TPTP text: (name, role, formula)."""
    text = re.sub(r"%[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = []
    i = 0
    while True:
        m = re.compile(r"\b" + keyword + r"\(").search(text, i)
        if not m:
            return out
        j = m.end()
        depth, parts, start, quote = 1, [], j, None
        while depth:
            c = text[j]
            if quote:
                if c == "\\":
                    j += 1
                elif c == quote:
                    quote = None
            elif c in "'\"":
                quote = c
            elif c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "," and depth == 1:
                parts.append(text[start:j].strip())
                start = j + 1
            j += 1
        parts.append(text[start : j - 1].strip())
        out.append((parts[0], parts[1], parts[2]))
        i = j


def eprover(problem):
    with tempfile.NamedTemporaryFile("w", suffix=".p", delete=False) as f:
        f.write(problem)
        path = f.name
    try:
        r = subprocess.run(
            ["eprover", "--auto", "-s", f"--cpu-limit={ECPU}", path],
            capture_output=True,
            text=True,
            env=dict(os.environ, TPTP=ROOT),
        )
    finally:
        os.unlink(path)
    m = re.search(r"SZS status (\w+)", r.stdout)
    return m.group(1) if m else "none"


SKOLEM = re.compile(r"\bsk_*\d+(\((?:[^()]|\([^()]*\))*\))?")


def generalise(clause):
    """![vars]: ?[ys]: clause with each distinct Skolem term an existential."""
    terms = []

    def sub(m):
        t = m.group(0)
        if t not in terms:
            terms.append(t)
        return f"Y{terms.index(t)}"

    body = SKOLEM.sub(sub, clause)
    xs = sorted(set(re.findall(r"\bX\d+\b", body)), key=lambda v: int(v[1:]))
    ys = [f"Y{i}" for i in range(len(terms))]
    f = f"({body})"
    if ys:
        f = f"? [{','.join(ys)}] : {f}"
    if xs:
        f = f"! [{','.join(xs)}] : ({f})"
    return f


DEF_ATOM = re.compile(r"(~?)(def_*\d+)(\(([^()]*)\))?")


def definitions(derivation):
    """Definition symbol -> (parameter names, body text) from the fof lines."""
    out = {}
    for _, role, f in annotated(derivation, "fof"):
        if role != "definition":
            continue
        m = re.match(r"\s*!\s*\[([^\]]*)\]\s*:\s*\(\((def_*\d+)(?:\(([^()]*)\))?\s*<=>\s*(.*)\)\)\s*$", f, re.S)
        if not m:
            m0 = re.match(r"\s*\((def_*\d+)\s*<=>\s*(.*)\)\s*$", f, re.S)
            if m0:
                out[m0.group(1)] = ([], m0.group(2))
            continue
        params = [v.strip() for v in (m.group(3) or "").split(",") if v.strip()]
        out[m.group(2)] = (params, m.group(4))
    return out


def expand(clause, defs):
    """The clause with each definition literal replaced by its body."""

    def sub(m):
        neg, name, args = m.group(1), m.group(2), m.group(4)
        params, body = defs[name]
        args = [a.strip() for a in (args or "").split(",") if a.strip()]
        mapping = dict(zip(params, args))

        def var(v):
            x = v.group(0)
            return "@" + mapping[x] if x in mapping else "Z" + x[1:]

        text = re.sub(r"\bX\d+\b", var, body).replace("@", "")
        return f"{neg}({text})"

    return DEF_ATOM.sub(sub, clause)


def main():
    files = sorted(
        os.path.join(ROOT, "Axioms", n)
        for n in os.listdir(os.path.join(ROOT, "Axioms"))
        if "+" in n and n.endswith(".ax")
    )
    print(f"{'file':<14} {'formulas':>8} {'cl=>F thm':>9} {'clauses':>8} {'F=>cl thm':>9} {'def':>4} {'undecided':>9} {'csa':>4}")
    tot = [0] * 7
    bad = 0
    for path in files:
        out = subprocess.run(
            [BIN, "derive", "-q", "--max-processed", "0", "--tptp", ROOT, path],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        clauses = [f for (_, _, f) in annotated(out, "cnf")]
        defs = definitions(out)
        formulas = [(n, f) for (n, r, f) in annotated(open(path).read(), "fof")]
        cnf_axioms = "".join(f"cnf(c{i}, axiom, {c}).\n" for i, c in enumerate(clauses))
        undecided = csa = 0
        fwd = 0
        for name, f in formulas:
            s = eprover(cnf_axioms + f"fof(goal, conjecture, {f}).\n")
            if s == "Theorem":
                fwd += 1
            elif s == "CounterSatisfiable":
                csa += 1
                print(f"  {os.path.basename(path)}: clauses do not imply {name}", file=sys.stderr)
            else:
                undecided += 1
        rel = os.path.relpath(path, ROOT)
        back = ndefs = 0
        for c in clauses:
            if re.search(r"\bdef_*\d+\b", c):
                ndefs += 1
                c = expand(c, defs)
            s = eprover(f"include('{rel}').\nfof(goal, conjecture, {generalise(c)}).\n")
            if s == "Theorem":
                back += 1
            elif s == "CounterSatisfiable":
                csa += 1
                print(f"  {os.path.basename(path)}: formulas do not imply {c}", file=sys.stderr)
            else:
                undecided += 1
        row = [len(formulas), fwd, len(clauses), back, ndefs, undecided, csa]
        tot = [a + b for a, b in zip(tot, row)]
        bad += csa
        print(f"{os.path.basename(path):<14} " + " ".join(f"{v:>{w}}" for v, w in zip(row, [8, 9, 8, 9, 4, 9, 4])))
    print(f"{'TOTAL':<14} " + " ".join(f"{v:>{w}}" for v, w in zip(tot, [8, 9, 8, 9, 4, 9, 4])))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
