#!/usr/bin/env python3
"""Iterative saturation at equal total work: theorem depth per number of rounds.

For each domain and each round count (1, 2, 3 by default), runs phase 1 of
`saturate --domain D --stage saturate` with `[saturation.iterate] rounds = R`
and the same `max_processed` total, then prints, per axiom file, the theorem
candidates' count, maximum and median depth (inferences from the original
axioms), the candidates per round, how many are reached only through an
earlier round's lemma, and the seconds per round.

    python3 scripts/iterate_depth.py --domains SET,GEO,TOP
    TPTP=../shared/tptp python3 scripts/iterate_depth.py --domains SET --tptp
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--domains", default="SET,GEO,TOP")
    ap.add_argument("--rounds", default="1,2,3")
    ap.add_argument("--max-processed", type=int, default=5000)
    ap.add_argument("--promote", type=int, default=50)
    ap.add_argument("--binary", default="target/release/saturate")
    ap.add_argument("--tptp", action="store_true", help="read the axioms from $TPTP")
    args = ap.parse_args()
    if args.tptp and not os.environ.get("TPTP"):
        sys.exit("--tptp needs the TPTP environment variable")
    print("| file | rounds | candidates | max depth | median depth | per round | via lemma | seconds per round |")
    print("|---|---:|---:|---:|---:|---|---:|---|")
    for domain in args.domains.split(","):
        rows = {}
        for r in args.rounds.split(","):
            with tempfile.TemporaryDirectory() as tmp:
                cfg = os.path.join(tmp, "c.toml")
                with open(cfg, "w") as f:
                    f.write(
                        f"[saturation.limits]\nmax_processed = {args.max_processed}\n"
                        f"[saturation.iterate]\nrounds = {r}\npromote = {args.promote}\n"
                    )
                env = dict(os.environ)
                if not args.tptp:
                    env.pop("TPTP", None)
                cmd = [args.binary, "--domain", domain, "--stage", "saturate", "-q",
                       "--config", cfg, "--out", os.path.join(tmp, "o")]
                p = subprocess.run(cmd, env=env, capture_output=True, text=True)
                if p.returncode != 0:
                    sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
                for rep in sorted(glob.glob(os.path.join(tmp, "o/artifacts/*/report.json"))):
                    x = json.load(open(rep))
                    t = x.get("theorems") or {}
                    name = os.path.basename(x["source"])
                    secs = x.get("timing", {}).get("round_seconds") or [x.get("timing", {}).get("seconds", 0)]
                    rows.setdefault(name, []).append((r, t, secs))
        for name, runs in sorted(rows.items()):
            for r, t, secs in runs:
                print(f"| {name} | {r} | {t.get('candidates', 0)} | {t.get('max_depth', 0)} | "
                      f"{t.get('median_depth', 0)} | {t.get('per_round', [])} | {t.get('via_lemma', 0)} | "
                      f"{', '.join(f'{s:.2f}' for s in secs)} |")


if __name__ == "__main__":
    main()
