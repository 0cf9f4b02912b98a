#!/usr/bin/env python3
"""Cost per certified row: rows per CPU-second per family and level, split
into saturation (phase 1), proving, model search, checking and the rest
(generation, writing), with the prover calls and undecided ones, the slots
built (those thrown away past a cell's end included), the rejected
attempts and repeats per row with the commonest reasons, the CPU the
rejected draws cost (by reason) and that of the rows built but never
written (repeated or held answers, duplicates), and the
process's peak resident size while the cells ran, for the TPTP families on SET (the real TPTP files
when a TPTP root has them), GEO and TOP, and for PL and EQ.

Every run is cold (a fresh output root) with --jobs 1; the engine's
--cost-json gives each cell's CPU seconds (thread CPU clock, so a busy
machine does not inflate them) and the prover's split of them; phase 1 is
shared evenly by the run's rows, the writer thread's seconds by generation
CPU. A second run of the first domain on the same root shows phase 1
reused. The reference pipeline
(seed paper 001) spends 0.5-125 s per instance, i.e. 0.008-2 rows/s.

A row's `cpu_s` and `rows_per_cpu_s` include its share of phase 1 and of
the writer; `cell_cpu_s` and `cell_rows_per_cpu_s` are the cells' own
thread CPU alone (what `--cost-json` measures per cell).

Usage: scripts/cost_per_row.py [--count N] [--levels 1,2,3,4] [--bin PATH]
       [--tptp DIR] [--domains SET,GEO,TOP] [--no-pl] [--no-eq] [--csv FILE]
Output: a Markdown table on stdout, the CSV (default out/bench/cost_per_row.csv).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(cmd: list[str]) -> tuple[float, float]:
    """Runs `cmd` (exit 0 or 4 tolerated: 4 = bugs, reported), returns
    (wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 4):
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def family_of(cell: str) -> tuple[str, str, str]:
    """(config, group, level) of a summary cell key `config group Lk`."""
    parts = cell.split()
    return parts[0], " ".join(parts[1:-1]), parts[-1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--levels", default="1,2,3,4")
    ap.add_argument("--bin", default=str(ROOT / "target/release/saturate"))
    ap.add_argument("--tptp", default=os.environ.get("TPTP", str(ROOT / "../shared/tptp")))
    ap.add_argument("--domains", default="SET,GEO,TOP")
    ap.add_argument("--no-pl", action="store_true")
    ap.add_argument("--no-eq", action="store_true")
    ap.add_argument("--csv", default=str(ROOT / "out/bench/cost_per_row.csv"),
                    help="where the table goes as CSV (two runs side by side need two)")
    a = ap.parse_args()
    if not Path(a.bin).exists():
        subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    tmp = Path(tempfile.mkdtemp(prefix="cost-per-row-"))
    common = ["--count", str(a.count), "--levels", a.levels, "--jobs", "1", "-q"]
    rows = []  # one dict per (source, config, level)
    notes = []

    def collect(label: str, cost_file: Path, wall: float, cpu: float, out: Path | None = None) -> dict:
        c = json.loads(cost_file.read_text())
        # Rejected attempts and repeats per cell, from the datasets'
        # summaries (every attempt a row did not come from cost CPU).
        rejects = defaultdict(lambda: defaultdict(int))
        for summary in (out.glob("*/*-tasks/summary.json") if out else []):
            for key, v in json.loads(summary.read_text()).get("cells", {}).items():
                config, _, level = family_of(key)
                for reason, n in v.get("rejects", {}).items():
                    rejects[(config, level)][reason] += n
                rejects[(config, level)]["repeat"] += v.get("repeats", 0)
        # Phase 1 (TPTP): CPU seconds of the files saturated by this run,
        # shared evenly by its rows.
        phase1 = sum(f.get("phase1_cpu_seconds", 0.0) for f in c.get("files", []) if not f["reused"])
        per = defaultdict(lambda: defaultdict(float))
        reject_cpu = defaultdict(lambda: defaultdict(float))
        for key, v in c["cells"].items():
            config, _, level = family_of(key)
            d = per[(config, level)]
            for k in ("rows", "cpu_seconds", "saturation", "models", "checking", "undecided",
                      "prover_calls", "prover_unknowns", "candidates"):
                d[k] += v[k]
            d["discarded"] += v.get("discarded", 0)
            # CPU of the rejected draws by reason and of the rows built but
            # not written (builds before these fields report none).
            for reason, s in v.get("reject_cpu", {}).items():
                reject_cpu[(config, level)][reason] += s
            d["thrown_rows_s"] += v.get("row_cpu", 0.0) - v.get("row_cpu_written", 0.0)
            # The run's largest resident size while any of these cells ran.
            d["peak_rss_mib"] = max(d["peak_rss_mib"], v.get("peak_rss_mib", 0))
        all_rows = sum(d["rows"] for d in per.values()) or 1
        gen_cpu = sum(d["cpu_seconds"] for d in per.values()) or 1.0
        for (config, level), d in sorted(per.items()):
            p1 = phase1 * d["rows"] / all_rows
            wr = c["writing_seconds"] * d["cpu_seconds"] / gen_cpu
            total = d["cpu_seconds"] + p1 + wr
            prover = d["saturation"] + d["models"] + d["checking"]
            rows.append(dict(
                source=label, config=config, level=level, rows=int(d["rows"]),
                cpu_s=round(total, 3),
                rows_per_cpu_s=round(d["rows"] / total, 3) if total else 0.0,
                cell_cpu_s=round(d["cpu_seconds"], 3),
                cell_rows_per_cpu_s=round(d["rows"] / d["cpu_seconds"], 3)
                if d["cpu_seconds"] else 0.0,
                phase1_s=round(p1, 3), proving_s=round(d["saturation"], 3),
                models_s=round(d["models"], 3), checking_s=round(d["checking"], 3),
                undecided_s=round(d["undecided"], 3),
                other_s=round(max(0.0, d["cpu_seconds"] - prover) + wr, 3),
                prover_calls=int(d["prover_calls"]),
                calls_per_row=round(d["prover_calls"] / d["rows"], 1) if d["rows"] else None,
                unknowns=int(d["prover_unknowns"]),
                slots=int(d["candidates"] + d["discarded"]),
                rejects_per_row=round(sum(rejects[(config, level)].values()) / d["rows"], 1)
                if d["rows"] else None,
                top_rejects=" ".join(f"{r}={n}" for r, n in sorted(
                    rejects[(config, level)].items(), key=lambda x: -x[1])[:3] if n),
                rejected_s=round(sum(reject_cpu[(config, level)].values()), 3),
                top_reject_cpu=" ".join(f"{r}={s:.2f}s" for r, s in sorted(
                    reject_cpu[(config, level)].items(), key=lambda x: -x[1])[:3] if s >= 0.005),
                thrown_rows_s=round(max(0.0, d["thrown_rows_s"]), 3),
                peak_rss_mib=int(d["peak_rss_mib"]),
            ))
        notes.append(f"{label}: {int(all_rows)} rows, wall {wall:.1f}s, CPU {cpu:.1f}s "
                     f"(phase 1 {phase1:.1f} CPU-s, generation {gen_cpu:.1f} CPU-s, "
                     f"{all_rows / cpu:.2f} rows per CPU-second overall)")
        return c

    tptp_axioms = Path(a.tptp) / "Axioms"
    for d in a.domains.split(","):
        real = tptp_axioms.is_dir() and any(tptp_axioms.glob(f"{d}*-*.ax"))
        out = tmp / d
        cost = tmp / f"{d}.json"
        cmd = [a.bin, "--domain", d, "--out", str(out), "--cost-json", str(cost), *common]
        if real:
            cmd += ["--tptp", a.tptp]
        wall, cpu = run(cmd)
        collect(f"{d} ({'TPTP' if real else 'embedded'})", cost, wall, cpu, out)
        if d == a.domains.split(",")[0]:
            # The same run again on the same root: phase 1 comes from the
            # artifacts, the dataset is byte-identical.
            cost2 = tmp / f"{d}-again.json"
            cmd2 = [x if x != str(cost) else str(cost2) for x in cmd]
            wall2, cpu2 = run(cmd2)
            notes.append(f"{d} rerun on the same root (phase 1 from the artifacts, same bytes): "
                         f"wall {wall2:.1f}s, CPU {cpu2:.1f}s against {cpu:.1f}s cold")
    if not a.no_pl:
        cost = tmp / "pl.json"
        wall, cpu = run([a.bin, "pl", "--out", str(tmp / "pl"), "--cost-json", str(cost), *common])
        collect("PL", cost, wall, cpu, tmp / "pl")
    if not a.no_eq:
        cost = tmp / "eq.json"
        wall, cpu = run([a.bin, "eq", "--out", str(tmp / "eq"), "--cost-json", str(cost), *common])
        collect("EQ", cost, wall, cpu, tmp / "eq")

    cols = ["source", "config", "level", "rows", "cpu_s", "rows_per_cpu_s", "cell_cpu_s",
            "cell_rows_per_cpu_s", "phase1_s", "proving_s",
            "models_s", "checking_s", "undecided_s", "other_s", "prover_calls", "calls_per_row",
            "unknowns", "slots", "rejects_per_row", "top_rejects", "rejected_s", "top_reject_cpu",
            "thrown_rows_s", "peak_rss_mib"]
    Path(a.csv).parent.mkdir(parents=True, exist_ok=True)
    with open(a.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join("" if r[c] is None else str(r[c]) for c in cols) + " |")
    print()
    for n in notes:
        print(f"- {n}")
    print("- reference pipeline (seed 001): 0.5-125 s per instance = 0.008-2 rows per second")
    print(f"- runs kept in {tmp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
