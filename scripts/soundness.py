#!/usr/bin/env python3
# Soundness check of saturate derivations against E prover (standard library
# only): for sampled derived clauses, E must refute premises + negated clause.
"""Check sampled derived clauses of `saturate derive` runs with E prover.

For every sampled clause C derived from premises P1..Pn (every clause name in
its inference record, nested ones included: parents and the unit clauses used
for rewriting and simplify-reflect), E gets P1..Pn as axioms plus the negation
of C with each variable replaced by a fresh constant, and must answer
`SZS status Unsatisfiable`.

Outcomes: `proved` (Unsatisfiable), `failed` (E found the problem satisfiable:
C does not follow, a soundness bug) and `unknown` (E gave up within its
limits, also with a fixed heuristic, without one premise at a time and with
E's strategy schedule). Exit status 1 when anything failed (or was unknown
with --strict).
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

NAME_RE = re.compile(r"^c\d+$")


def split_top(text, sep):
    """Splits `text` at `sep` occurrences outside parentheses, brackets and quotes."""
    parts, depth, cur, i, quote = [], 0, [], 0, None
    while i < len(text):
        ch = text[i]
        if quote:
            cur.append(ch)
            if ch == "\\" and i + 1 < len(text):
                cur.append(text[i + 1])
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            cur.append(ch)
        elif ch in "([":
            depth += 1
            cur.append(ch)
        elif ch in ")]":
            depth -= 1
            cur.append(ch)
        elif depth == 0 and text.startswith(sep, i):
            parts.append("".join(cur))
            cur = []
            i += len(sep)
            continue
        else:
            cur.append(ch)
        i += 1
    parts.append("".join(cur))
    return parts


def tokens(text):
    """Yields (kind, text) tokens: 'quoted' for '..'/".." strings, else 'word' or 'other'."""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "'\"":
            j = i + 1
            while j < len(text) and text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            yield "quoted", text[i : j + 1]
            i = j + 1
        elif ch.isalnum() or ch in "_$":
            j = i
            while j < len(text) and (text[j].isalnum() or text[j] in "_$"):
                j += 1
            yield "word", text[i:j]
            i = j
        else:
            yield "other", ch
            i += 1


def parse_line(line):
    """(name, role, clause body, annotation) of one `cnf(...)` line of TSTP output."""
    line = line.strip()
    if not (line.startswith("cnf(") and line.endswith(").")):
        raise ValueError(f"not a cnf line: {line}")
    inner = line[4:-2]
    parts = split_top(inner, ",")
    if len(parts) < 3:
        raise ValueError(f"too few fields: {line}")
    name, role, body = parts[0].strip(), parts[1].strip(), parts[2].strip()
    annotation = ",".join(parts[3:]).strip() if len(parts) > 3 else ""
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1].strip()
    return name, role, body, annotation


def premise_names(annotation):
    """Clause names (`c<digits>`) in an inference record, first mention first."""
    out = []
    for kind, tok in tokens(annotation):
        if kind == "word" and NAME_RE.match(tok) and tok not in out:
            out.append(tok)
    return out


def ground(text):
    """Replaces every variable (upper-case word outside quotes) by `sk_<var>`."""
    out = []
    for kind, tok in tokens(text):
        if kind == "word" and tok[0].isupper():
            out.append("sk_" + tok.lower())
        else:
            out.append(tok)
    return "".join(out)


def negate(lit):
    """The complement of a literal: `~L` for `L`, `s!=t` for `s=t` and back."""
    lit = lit.strip()
    if lit.startswith("~"):
        return lit[1:].strip()
    ne = split_top(lit, "!=")
    if len(ne) == 2:
        return f"{ne[0]}={ne[1]}"
    eq = split_top(lit, "=")
    if len(eq) == 2:
        return f"{eq[0]}!={eq[1]}"
    return "~" + lit


def obligations(source, tstp, samples):
    """The E problems for up to `samples` derived clauses of one derivation."""
    clauses = {}
    derived = []
    for line in tstp.splitlines():
        if not line.startswith("cnf("):
            continue
        name, role, body, ann = parse_line(line)
        clauses[name] = body
        if ann.startswith("inference("):
            derived.append((name, body, ann))
    step = max(1, len(derived) // samples) if samples > 0 else 1
    picked = derived[step // 2 :: step][:samples]
    empty = [d for d in derived if d[1] == "$false"]
    if empty and empty[0] not in picked:
        picked.append(empty[0])
    cases = []
    for name, body, ann in picked:
        prem = premise_names(ann)
        lines = [f"% {name} of {source}: {body}", f"% {ann}"]
        for p in prem:
            if p not in clauses:
                raise ValueError(f"{source}: {name} names unknown premise {p}")
            lines.append(f"cnf({p}, axiom, ({clauses[p]})).")
        if body != "$false":
            for i, lit in enumerate(split_top(body, "|")):
                lines.append(f"cnf(negated_{i}, negated_conjecture, ({ground(negate(lit))})).")
        cases.append((f"{source} {name}", "\n".join(lines) + "\n", prem))
    return cases


def run_e(eprover, path, args):
    """The SZS status E reports for a problem file."""
    try:
        out = subprocess.run(
            [eprover, *args, "-s", "--tstp-format", path],
            capture_output=True,
            text=True,
            timeout=600,
        ).stdout
    except subprocess.TimeoutExpired:
        return "Timeout"
    m = re.search(r"SZS status (\w+)", out)
    return m.group(1) if m else "NoStatus"


# A fixed E heuristic for unit-equational searches where --auto gets lost
# (the first slice of E's own --auto-schedule for such problems).
FIXED_HEURISTIC = ["-xG_E___208_C47_F1_SE_CS_SP_PS_S0Y", "-tKBO6", "-Garity", "-warity"]


def check(eprover, path, text, premises, cpu, generated, keep, schedule):
    """('proved' | 'failed' | 'unknown', E status of the first attempt).

    Attempts, each under a generated-clause limit (deterministic): --auto;
    a fixed heuristic; --auto without one premise at a time (a refutable
    subset proves the clause too); optionally E's time-sliced schedule.
    """
    limits = [f"--cpu-limit={cpu}"]
    first = run_e(eprover, path, ["--auto", *limits, f"--generated-limit={generated}"])
    if first == "Unsatisfiable":
        return "proved", first
    if first in ("Satisfiable", "CounterSatisfiable"):
        return "failed", first
    if run_e(eprover, path, [*FIXED_HEURISTIC, *limits, f"--generated-limit={generated // 2}"]) == "Unsatisfiable":
        return "proved", first
    if len(premises) <= 6:
        for p in premises:
            sub = "".join(
                ln + "\n" for ln in text.splitlines() if not ln.startswith(f"cnf({p},")
            )
            sub_path = path + f".without-{p}.p"
            with open(sub_path, "w") as f:
                f.write(sub)
            st = run_e(eprover, sub_path, ["--auto", *limits, f"--generated-limit={generated // 4}"])
            if not keep:
                os.remove(sub_path)
            if st == "Unsatisfiable":
                return "proved", first
    if schedule and run_e(eprover, path, ["--auto-schedule", *limits]) == "Unsatisfiable":
        return "proved", first
    return "unknown", first


def derive(binary, path, max_processed, tptp):
    cmd = [binary, "derive", path, "--max-processed", str(max_processed), "-q"]
    if tptp:
        cmd += ["--tptp", tptp]
    env = {k: v for k, v in os.environ.items() if k != "TPTP"}
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="TPTP CNF axiom files to saturate")
    ap.add_argument("--samples", type=int, default=50, help="derived clauses per file")
    ap.add_argument("--max-processed", type=int, default=1000, help="saturate's given-clause limit")
    ap.add_argument("--bin", default="target/release/saturate", help="the saturate binary")
    ap.add_argument("--tptp", default=None, help="TPTP root for includes")
    ap.add_argument("--eprover", default="eprover")
    ap.add_argument("--jobs", type=int, default=2, help="parallel E calls")
    ap.add_argument("--cpu-limit", type=int, default=20, help="E CPU seconds per attempt")
    ap.add_argument("--e-generated", type=int, default=100000,
                    help="E generated-clause limit of the first attempt (retries get less)")
    ap.add_argument("--no-schedule", action="store_true",
                    help="skip the last retry with E's time-sliced strategy schedule")
    ap.add_argument("--keep", default=None, help="write the E problems into this folder")
    ap.add_argument("--strict", action="store_true", help="count unknown cases as failures")
    a = ap.parse_args()

    work = a.keep or tempfile.mkdtemp(prefix="soundness-")
    os.makedirs(work, exist_ok=True)
    cases = []
    for f in a.files:
        tstp = derive(a.bin, f, a.max_processed, a.tptp)
        c = obligations(f, tstp, a.samples)
        print(f"{f}: {len(c)} clauses sampled", flush=True)
        cases.extend(c)
    paths = []
    for i, (_, text, _) in enumerate(cases):
        p = os.path.join(work, f"case{i:05}.p")
        with open(p, "w") as fh:
            fh.write(text)
        paths.append(p)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        results = list(
            ex.map(
                lambda i: check(a.eprover, paths[i], cases[i][1], cases[i][2],
                                a.cpu_limit, a.e_generated, a.keep, not a.no_schedule),
                range(len(cases)),
            )
        )
    failed = [(i, st) for i, (v, st) in enumerate(results) if v == "failed"]
    unknown = [(i, st) for i, (v, st) in enumerate(results) if v == "unknown"]
    for title, group in (("FAILED", failed), ("UNKNOWN", unknown)):
        for i, st in group:
            print(f"\n{title} ({st}): {cases[i][0]}  [{paths[i]}]\n{cases[i][1]}", end="")
    n_failed = len(failed) + (len(unknown) if a.strict else 0)
    print(f"\nchecked {len(cases)}, failed {n_failed}, unknown {len(unknown)}")
    if not a.keep:
        for p in paths:
            os.remove(p)
        os.rmdir(work)
    return 1 if n_failed else 0


if __name__ == "__main__":
    sys.exit(main())
