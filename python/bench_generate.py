#!/usr/bin/env python3
"""Latency at the reward boundary, per family: rows per second from
``saturate.create_dataset`` (in-process streaming generation, the rows
the CLI writes) against the CLI's ``saturate generate`` on the same
settings, and scores per second from ``saturate.score_batch`` on those
rows (one answer each, cycling through the gold completion, the gold
answer in tags with reasoning around it, and a wrong answer).

For each family one config at one level: ``--size`` rows (one cell) from
a fresh ``create_dataset`` call, timed to the first row (latency) and to
the last (throughput); the CLI with ``--count size --levels L`` (all the
family's configs, so its rows per second count every row it writes);
then ``score_batch`` on the rows, best of ``--repeat``. TPTP's phase 1 is
warmed up first (its artifacts cached), so its figure is phase 2's.

    python3 python/bench_generate.py
    python3 python/bench_generate.py --size 200 --cli target/release/saturate
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]

import saturate  # noqa: E402

#: (family, config, generate command arguments) per family measured.
FAMILIES = [
    ("tptp", "conjecture_entailment", ["--domain", "LAT"]),
    ("tptp", "premise_selection", ["--domain", "LAT"]),
    ("pl1", "pl1_proof_checking", ["pl"]),
    ("eq", "eq_pc", ["eq"]),
    ("eq", "eq_gf", ["eq"]),
    ("equiv", "equivalence_pl", ["equiv"]),
    ("equiv", "roundtrip_fol", ["equiv"]),
]


def answers_for(rows):
    out = []
    for i, row in enumerate(rows):
        kind = i % 3
        if kind == 0:
            out.append(row["completion"])
        elif kind == 1:
            out.append(f"Let me think.\n<answer>{row['answer']}</answer>")
        else:
            out.append("I do not know.")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--level", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cli", default=None, help="the saturate binary (default: skip the CLI)")
    args = ap.parse_args()
    cache = tempfile.mkdtemp(prefix="bench-gen-cache-")
    out = tempfile.mkdtemp(prefix="bench-gen-cli-")
    # Phase 1 once, so TPTP figures are phase 2's (as they are for a
    # training loop that calls create_dataset repeatedly).
    list(saturate.create_dataset("conjecture_entailment", 1, seed=args.seed, level=1, cache=cache))
    print(f"{'family':6} {'config':22} {'rows':>5} {'first row s':>11} {'rows/s':>8} "
          f"{'CLI rows/s':>10} {'scores/s':>9} {'mean':>5}")
    for family, config, cmd in FAMILIES:
        opts = {"cache": cache} if family == "tptp" else {}
        t0 = time.perf_counter()
        ds = saturate.create_dataset(config, args.size, seed=args.seed, level=args.level, **opts)
        first = ds[0]
        t1 = time.perf_counter()
        rows = list(ds)
        t2 = time.perf_counter()
        assert rows[0] == first
        cli = ""
        if args.cli:
            target = os.path.join(out, f"{family}-{config}")
            argv = [args.cli, *cmd, "--count", str(args.size), "--levels", str(args.level),
                    "--seed", str(args.seed), "--format", "jsonl", "--quiet"]
            argv += ["--out", out + "/tptp"] if family == "tptp" else ["--out", target]
            c0 = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True)
            c1 = time.perf_counter()
            root = out + "/tptp/LAT/LAT-tasks" if family == "tptp" else target
            with open(os.path.join(root, "summary.json")) as f:
                written = json.load(f)["total_rows"]
            cli = f"{written / (c1 - c0):10.1f}"
        answers = answers_for(rows)
        best = float("inf")
        for _ in range(args.repeat):
            s0 = time.perf_counter()
            scores = saturate.score_batch(rows, answers)
            best = min(best, time.perf_counter() - s0)
        print(f"{family:6} {config:22} {len(rows):5d} {t1 - t0:11.3f} "
              f"{len(rows) / (t2 - t0):8.1f} {cli:>10} {len(rows) / best:9.0f} "
              f"{sum(scores) / len(scores):5.2f}")


if __name__ == "__main__":
    main()
