#!/usr/bin/env python3
"""Scoring throughput: the Python package's ``saturate.score_batch`` against
the CLI's ``saturate score`` on the same rows and the same answers.

For each dataset (by default small TPTP, PL and EQ datasets generated with
``saturate.generate`` into a temporary folder; or the folders given with
``--dataset``), every row gets one answer (cycling through the gold answer,
the gold answer wrapped in reasoning and tags, and a wrong answer), written
as the CLI's JSON Lines. It then times:

- ``score_batch(rows, answers)``, in-process, best of ``--repeat`` runs;
- ``saturate score --dataset DIR --answers FILE --json`` as a subprocess,
  best of ``--repeat`` runs (this includes the process start and reading
  and checking the dataset, which is what a harness calling the CLI pays);

checks that both give the same mean score, and prints rows scored per
second for each and the ratio.

    python3 python/bench_score.py                      # generated datasets
    python3 python/bench_score.py --dataset out/SET/SET-tasks --repeat 5
    python3 python/bench_score.py --cli target/release/saturate
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
# Python puts this script's folder first on sys.path, where `saturate/` is
# the package's source without the compiled module: import the installed
# package (pip install ./python) instead.
sys.path = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]

import saturate  # noqa: E402


def read_rows(dataset: str) -> list[dict]:
    with open(os.path.join(dataset, "manifest.json")) as f:
        manifest = json.load(f)
    rows = []
    for config in sorted(manifest["configs"]):
        for split in sorted(manifest["configs"][config]["splits"]):
            for shard in manifest["configs"][config]["splits"][split]["shards"]:
                rows.extend(pq.read_table(os.path.join(dataset, shard["file"])).to_pylist())
    return rows


def answers_for(rows: list[dict]) -> list[str]:
    out = []
    for i, row in enumerate(rows):
        kind = i % 3
        if kind == 0:
            out.append(row["answer"])
        elif kind == 1:
            out.append(f"Reasoning about the premises first.\n\n<answer>\n{row['answer']}\n</answer>")
        else:
            out.append(rows[(i + 1) % len(rows)]["answer"])
    return out


def find_cli(given: str | None) -> str:
    for candidate in [given, os.path.join(HERE, "..", "target", "release", "saturate"), shutil.which("saturate")]:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    sys.exit("no saturate binary: build it (cargo build --release) or pass --cli PATH")


def best_of(repeat: int, f) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = f()
        best = min(best, time.perf_counter() - t)
    return best, result


def bench(dataset: str, cli: str, repeat: int, work: str) -> tuple[int, float, float]:
    rows = read_rows(dataset)
    answers = answers_for(rows)
    path = os.path.join(work, f"answers-{abs(hash(dataset))}.jsonl")
    with open(path, "w") as f:
        for row, answer in zip(rows, answers):
            f.write(json.dumps({"id": row["id"], "answer": answer}) + "\n")
    py_seconds, scores = best_of(repeat, lambda: saturate.score_batch(rows, answers))
    py_mean = sum(scores) / len(scores)

    def run_cli():
        done = subprocess.run(
            [cli, "score", "--dataset", dataset, "--answers", path, "--out", path + ".scores", "--json"],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            sys.exit(f"saturate score failed: {done.stderr}")
        return json.loads(done.stdout)

    cli_seconds, summary = best_of(repeat, run_cli)
    cli_mean = summary["overall"]["mean_score_answered"]
    if abs(cli_mean - py_mean) > 1e-9:
        sys.exit(f"{dataset}: mean score differs: CLI {cli_mean}, Python {py_mean}")
    print(
        f"{dataset}: {len(rows)} rows, mean score {py_mean:.3f}; "
        f"score_batch {py_seconds * 1000:.1f} ms ({len(rows) / py_seconds:,.0f} rows/s), "
        f"CLI {cli_seconds * 1000:.1f} ms ({len(rows) / cli_seconds:,.0f} rows/s)"
    )
    return len(rows), py_seconds, cli_seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", action="append", help="dataset folder (repeatable); default: generate small ones")
    ap.add_argument("--cli", help="the saturate binary (default: target/release/saturate, then PATH)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best counts (default 3)")
    ap.add_argument("--count", type=int, default=10, help="rows per cell of the generated datasets (default 10)")
    args = ap.parse_args()
    cli = find_cli(args.cli)
    with tempfile.TemporaryDirectory(prefix="py-bench-") as work:
        datasets = args.dataset or [
            saturate.generate("tptp", os.path.join(work, "tptp"), domain="SET", count=args.count, seed=1)["dataset"],
            saturate.generate("pl", os.path.join(work, "pl"), count=args.count, seed=1)["dataset"],
            saturate.generate("eq", os.path.join(work, "eq"), count=args.count, seed=1)["dataset"],
        ]
        total_rows = total_py = total_cli = 0.0
        for d in datasets:
            n, py, cl = bench(d, cli, max(1, args.repeat), work)
            total_rows += n
            total_py += py
            total_cli += cl
    py_rate, cli_rate = total_rows / total_py, total_rows / total_cli
    print(f"Python score_batch: {py_rate:,.0f} rows/s ({total_py / len(datasets) * 1000:.1f} ms per batch call)")
    print(f"CLI saturate score: {cli_rate:,.0f} rows/s")
    print(f"ratio (Python / CLI): {py_rate / cli_rate:.2f}x")


if __name__ == "__main__":
    main()
