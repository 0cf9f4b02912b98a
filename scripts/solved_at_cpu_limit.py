#!/usr/bin/env python3
"""Problems solved at equal CPU time: `saturate prove` against `eprover --auto`.

Both provers get the same CPU limit per problem (`saturate prove FILE
--cpu-limit N`, `eprover --auto --cpu-limit=N`) on every `*.p` file under the
problem folders given; the report gives solved counts per domain (the
folder a problem sits in, TPTP's three-letter domain), wrong verdicts (a
success status that contradicts the file's `% Status` line; each of ours
has already passed the independent certificate checker inside `saturate
prove`), CPU seconds, and names the problems each prover solves alone.

    scripts/solved_at_cpu_limit.py [--cpu 10] [--jobs 2] DIR [DIR ...]

Options:
  --bin B         the saturate binary (default: build and use target/release)
  --strategy N=C  one of ours: NAME=CONFIG_FILE, or NAME=- for the built-in
                  configuration, optionally followed by extra `prove`
                  arguments after a colon (`big=-:--max-processed 1000000`);
                  repeatable; default `default=-`
  --ecache DIR    E's outputs are kept here per problem and limit, since
                  E's verdicts do not change between runs of ours
                  (default out/bench/ecache)
  --out FILE      markdown report (default out/bench/solved_at_cpu_limit.md)
  --json FILE     per-problem results as JSON as well

Each TPTP root (the folder holding `Problems/`) is passed as `TPTP` so
`include('Axioms/...')` resolves. Exit 1 when a verdict of ours is wrong or
a run errs, 2 when eprover is missing.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

SUCCESS = {"Unsatisfiable", "Satisfiable", "Theorem", "CounterSatisfiable"}


def tptp_root(problem: Path) -> Path:
    """The TPTP root of a problem file: the parent of its `Problems` folder."""
    for p in problem.parents:
        if p.name == "Problems":
            return p.parent
    return problem.parent


def expected_status(problem: Path) -> str:
    with open(problem, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("% Status"):
                parts = line.split()
                return parts[3] if len(parts) > 3 else "Unknown"
    return "Unknown"


def timed(cmd: list[str], env: dict[str, str], timeout: float) -> tuple[str, float, int]:
    """Runs `cmd`; stdout, child CPU seconds (user + sys) and exit code."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    chunks = []
    assert p.stdout is not None
    def reader() -> None:
        assert p.stdout is not None
        chunks.append(p.stdout.read())

    t = threading.Thread(target=reader)
    t.start()
    t.join(timeout)
    if t.is_alive():
        p.kill()
        t.join()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return (b"".join(chunks)).decode("utf-8", "replace"), ru.ru_utime + ru.ru_stime, p.returncode


def szs(out: str, prefix: str) -> str:
    for line in out.splitlines():
        if line.startswith(prefix) and "SZS status" in line:
            parts = line.split()
            i = parts.index("status")
            return parts[i + 1] if i + 1 < len(parts) else "none"
    return "none"


def eprover_result(problem: Path, cpu: int, cache: Path) -> dict:
    key = hashlib.sha256(problem.read_bytes()).hexdigest()[:16]
    f = cache / f"{problem.stem}-{key}-cpu{cpu}.json"
    if f.exists():
        return json.loads(f.read_text())
    env = dict(os.environ, TPTP=str(tptp_root(problem)))
    out, secs, _ = timed(
        ["eprover", "--auto", f"--cpu-limit={cpu}", "-s", str(problem)], env, cpu * 3 + 30
    )
    r = {"status": szs(out, "#"), "cpu": round(secs, 2)}
    cache.mkdir(parents=True, exist_ok=True)
    f.write_text(json.dumps(r))
    return r


def ours_result(problem: Path, cpu: int, binary: str, config: str, extra: list[str]) -> dict:
    cmd = [binary, "prove", str(problem), "--cpu-limit", str(cpu), "-q"]
    if config != "-":
        cmd += ["--config", config]
    cmd += extra
    env = dict(os.environ, TPTP=str(tptp_root(problem)))
    out, secs, rc = timed(cmd, env, cpu * 3 + 30)
    status = szs(out, "%")
    if rc not in (0, 3):
        status = f"ERROR({rc})"
    return {"status": status, "cpu": round(secs, 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--cpu", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bin")
    ap.add_argument("--strategy", action="append", default=[])
    ap.add_argument("--ecache", type=Path, default=Path("out/bench/ecache"))
    ap.add_argument("--out", type=Path, default=Path("out/bench/solved_at_cpu_limit.md"))
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    if shutil.which("eprover") is None:
        print("eprover not found (apt-get install -y eprover)", file=sys.stderr)
        return 2
    binary = a.bin
    if binary is None:
        subprocess.run(["cargo", "build", "--release", "-q"], check=True)
        binary = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "saturate")
    strategies = []
    for s in a.strategy or ["default=-"]:
        name, _, rest = s.partition("=")
        config, _, extra = rest.partition(":")
        strategies.append((name, config or "-", extra.split()))
    problems = sorted(p for d in a.dirs for p in d.rglob("*.p"))
    if not problems:
        print(f"no *.p files under {' '.join(map(str, a.dirs))}", file=sys.stderr)
        return 2

    def one(problem: Path) -> dict:
        r = {
            "problem": problem.stem,
            "domain": problem.parent.name if problem.parent.name != "Problems" else problem.stem[:3],
            "expected": expected_status(problem),
            "E": eprover_result(problem, a.cpu, a.ecache),
        }
        for name, config, extra in strategies:
            r[name] = ours_result(problem, a.cpu, binary, config, extra)
        return r

    results = []
    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for i, r in enumerate(ex.map(one, problems), 1):
            results.append(r)
            cells = " ".join(f"{k}={r[k]['status']}" for k in ["E"] + [s[0] for s in strategies])
            print(f"[{i}/{len(problems)}] {r['problem']} ({r['expected']}): {cells}", file=sys.stderr)

    solvers = ["E"] + [s[0] for s in strategies]
    wrong = {s: 0 for s in solvers}
    errors = 0
    for r in results:
        for s in solvers:
            st = r[s]["status"]
            if st.startswith("ERROR"):
                errors += 1
            if st in SUCCESS and r["expected"] in SUCCESS and st != r["expected"]:
                wrong[s] += 1
    domains = sorted({r["domain"] for r in results})
    lines = [
        f"# Problems solved at {a.cpu} CPU seconds: saturate vs E",
        "",
        f"{len(results)} problems from {', '.join(f'`{d}`' for d in a.dirs)}; "
        f"E: `eprover --auto --cpu-limit={a.cpu}`; ours: `saturate prove FILE --cpu-limit {a.cpu}` "
        "plus each strategy's config and arguments. CPU: user + sys seconds over all problems.",
        "",
        "| domain | problems | " + " | ".join(solvers) + " |",
        "|---|---:|" + "---:|" * len(solvers),
    ]
    for d in domains + ["all"]:
        rs = [r for r in results if d == "all" or r["domain"] == d]
        counts = [sum(r[s]["status"] in SUCCESS for r in rs) for s in solvers]
        label = "**all**" if d == "all" else d
        lines.append(f"| {label} | {len(rs)} | " + " | ".join(map(str, counts)) + " |")
    lines += ["", "| solver | wrong | CPU s |", "|---|---:|---:|"]
    for s in solvers:
        lines.append(f"| {s} | {wrong[s]} | {sum(r[s]['cpu'] for r in results):.1f} |")
    for name, _, _ in strategies:
        e_only = [r for r in results if r["E"]["status"] in SUCCESS and r[name]["status"] not in SUCCESS]
        o_only = [r for r in results if r[name]["status"] in SUCCESS and r["E"]["status"] not in SUCCESS]
        lines += [
            "",
            f"E solves, `{name}` does not ({len(e_only)}): "
            + (", ".join(f"{r['problem']} ({r['E']['status']}, {r['E']['cpu']} s)" for r in e_only) or "none"),
            "",
            f"`{name}` solves, E does not ({len(o_only)}): "
            + (", ".join(f"{r['problem']} ({r[name]['status']})" for r in o_only) or "none"),
        ]
    lines += ["", "| problem | expected | " + " | ".join(solvers) + " |", "|---|---|" + "---|" * len(solvers)]
    for r in results:
        lines.append(
            f"| {r['problem']} | {r['expected']} | "
            + " | ".join(f"{r[s]['status']} {r[s]['cpu']}" for s in solvers)
            + " |"
        )
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text("\n".join(lines) + "\n")
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))
    print("\n".join(lines[: 6 + len(domains) + 1 + 3 + len(solvers)]))
    print(f"report: {a.out}")
    return 1 if errors or any(wrong[s[0]] for s in strategies) else 0


if __name__ == "__main__":
    sys.exit(main())
