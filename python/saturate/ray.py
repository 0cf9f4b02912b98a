"""Run a ``--domain`` dataset on a Ray cluster, from a laptop to many machines.

The run is the two stages of ``saturate --domain``: phase 1 writes one
saturation artifact per axiom file (one Ray task per file), phase 2
generates the dataset in shards (one Ray task per shard, each reading the
artifacts and never saturating), and a last task merges the shards into
``<out>/<NAME>/<NAME>-tasks``: byte for byte the dataset the single-process
run ``saturate --domain ...`` writes with the same version, config and seed,
whatever the number of shards, machines or retries.

``out`` must be a path every worker sees (a shared file system: NFS, Lustre,
a mounted bucket); artifacts are written under a temporary name and renamed
into place, so a task that dies never leaves half of one, and a retried task
redoes its work from the start. Ray retries tasks whose worker died
(``max_retries``); an input error (a bad config, an unknown domain) is not
retried: it would fail the same way again.

From Python::

    import saturate.ray
    summary = saturate.ray.run("/shared/out", domain="SET", count=50)

or from the shell (``--address auto`` joins a running cluster, as started
by ``ray start --head`` or KubeRay; without it a local Ray starts)::

    python -m saturate.ray --domain SET --out /shared/out --count 50

Test hook: with ``SATURATE_RAY_KILL_ONCE=<stage>:<marker path>`` in the
workers' environment, the first task of that stage (``saturate``,
``generate`` or ``merge``) to create the marker file kills its own worker
process with SIGKILL 0.3 s after it starts (or when its work is done,
whichever comes first), so the retry can be tested.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Sequence

from . import _native

__all__ = ["run", "main"]


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _kill_once(stage: str) -> bool:
    """The test hook of the module notes: when armed for this stage and the
    marker is new, kill this worker 0.3 s from now (mid-task), and return
    True so the task also dies before handing back its result should the
    work finish sooner."""
    spec = os.environ.get("SATURATE_RAY_KILL_ONCE", "")
    want, _, marker = spec.partition(":")
    if want != stage or not marker:
        return False
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.write(fd, f"{os.getpid()}\n".encode())
    os.close(fd)

    def kill() -> None:
        time.sleep(0.3)
        _die()

    threading.Thread(target=kill, daemon=True).start()
    return True


def _stage_task(out: str, stage: str, shard: tuple[int, int] | None, kw: dict[str, Any]) -> dict:
    """One Ray task: a stage of the run (for one shard) in this worker."""
    armed = _kill_once(stage)
    result = _native.generate("tptp", out, stage=stage, shard=shard, **kw)
    if armed:
        _die()
    return result


def _merge_task(target: str, dirs: list[str]) -> dict:
    """The last Ray task: the shards into the unsharded run's folder."""
    armed = _kill_once("merge")
    result = _native.merge(target, dirs)
    if armed:
        _die()
    return result


def _cluster_cpus(ray: Any) -> int:
    try:
        return max(1, int(ray.cluster_resources().get("CPU", 1)))
    except Exception:  # pragma: no cover - a cluster without the key
        return 1


def run(
    out: str | os.PathLike[str],
    *,
    domain: str | Sequence[str] | None = None,
    config: str | os.PathLike[str] | None = None,
    tptp: str | os.PathLike[str] | None = None,
    count: int | None = None,
    levels: int | str | Sequence[int] | None = None,
    seed: int | None = None,
    shards: int | None = None,
    cpus_per_task: int = 1,
    max_retries: int = 3,
    address: str | None = None,
    answer_format: str | None = None,
    trace: bool = False,
    format: str | None = None,
    split_by: str | None = None,
    split: Sequence[int] | None = None,
    problems: bool = False,
    log: Any = None,
) -> dict[str, Any]:
    """Generate a domain dataset on Ray; returns a summary dict.

    ``domain``, ``config``, ``tptp``, ``count``, ``levels``, ``seed`` and the
    ``[dataset]`` overrides (``answer_format``, ``trace``, ``format``,
    ``split_by``, ``split``) and ``problems`` (each problem file of the
    domains as a theory) are those of ``saturate.generate``. ``shards``
    is the number of phase-2 tasks (default: the cluster's CPUs divided by
    ``cpus_per_task``, at most the run's units); each task runs
    ``cpus_per_task`` engine threads and reserves as many Ray CPUs.
    ``address`` is passed to ``ray.init`` when Ray is not initialised yet
    (``None``: the ``RAY_ADDRESS`` variable, or a local Ray; ``"auto"``: the
    running cluster). ``log`` is a callable taking progress lines (default:
    print to stderr).

    The summary has ``dataset`` (the merged folder), ``rows``, ``plan``
    (``name``, ``files``, ``units``), ``artifacts`` (phase 1, one dict per
    axiom file), ``shards`` (phase 2 dataset folders) and ``seconds`` per
    phase. Raises ``ImportError`` when Ray is not installed, ``ValueError``
    on bad input, and Ray's task error when a task fails after its retries.
    """
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "saturate.ray needs Ray: pip install 'ray[default]'"
        ) from e
    say = log or (lambda line: print(line, file=sys.stderr, flush=True))
    if cpus_per_task < 1:
        raise ValueError(f"cpus_per_task must be at least 1, got {cpus_per_task}")
    if max_retries < 0:
        raise ValueError(f"max_retries must be at least 0, got {max_retries}")
    out = os.fspath(Path(out).absolute())
    kw: dict[str, Any] = dict(
        domain=domain,
        config=os.fspath(config) if config is not None else None,
        tptp=os.fspath(tptp) if tptp is not None else None,
        count=count,
        levels=levels,
        seed=seed,
        jobs=cpus_per_task,
        answer_format=answer_format,
        trace=trace,
        format=format,
        split_by=split_by,
        split=list(split) if split is not None else None,
        problems=problems,
    )
    plan = _native.plan(
        **{k: kw[k] for k in ("domain", "config", "tptp", "count", "levels", "seed", "problems")}
    )
    files, units, name = plan["files"], plan["units"], plan["name"]
    if units == 0:
        raise ValueError("the run has no cells (count 0 or no levels): nothing to generate")
    if shards is not None and not 1 <= shards <= units:
        raise ValueError(f"shards must be between 1 and the run's {units} unit(s), got {shards}")
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False)
    n = shards or max(1, min(units, _cluster_cpus(ray) // cpus_per_task))
    # Phase 1 needs only what the artifacts depend on (and which files).
    kw1 = {k: kw[k] for k in ("domain", "config", "tptp", "jobs", "problems")}
    task = ray.remote(_stage_task).options(
        num_cpus=cpus_per_task, max_retries=max_retries, retry_exceptions=False
    )
    merge_task = ray.remote(_merge_task).options(
        num_cpus=1, max_retries=max_retries, retry_exceptions=False
    )
    seconds: dict[str, float] = {}

    t = time.monotonic()
    say(f"{name}: phase 1, {len(files)} axiom file(s) as {len(files)} task(s)")
    phase1 = ray.get(
        [task.remote(out, "saturate", (i, len(files)), kw1) for i in range(1, len(files) + 1)]
    )
    artifacts = [a for s in phase1 for a in s["artifacts"]]
    seconds["saturate"] = time.monotonic() - t
    reused = sum(1 for a in artifacts if a["reused"])
    say(f"{name}: phase 1 done in {seconds['saturate']:.1f}s ({reused} artifact(s) reused)")

    t = time.monotonic()
    target = os.path.join(out, name, f"{name}-tasks")
    if n == 1:
        say(f"{name}: phase 2 as one task")
        s = ray.get(task.remote(out, "generate", None, kw))
        seconds["generate"] = time.monotonic() - t
        return dict(
            dataset=s["dataset"],
            rows=s["total_rows"],
            plan=plan,
            artifacts=artifacts,
            shards=[s["dataset"]],
            seconds=seconds,
        )
    say(f"{name}: phase 2, {units} unit(s) in {n} shard(s)")
    phase2 = ray.get([task.remote(out, "generate", (i, n), kw) for i in range(1, n + 1)])
    dirs = [s["dataset"] for s in phase2]
    seconds["generate"] = time.monotonic() - t

    t = time.monotonic()
    merged = ray.get(merge_task.remote(target, dirs))
    seconds["merge"] = time.monotonic() - t
    say(f"{name}: {merged['rows']} row(s) merged into {target}")
    return dict(
        dataset=target,
        rows=merged["rows"],
        plan=plan,
        artifacts=artifacts,
        shards=dirs,
        seconds=seconds,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m saturate.ray``: the command-line face of :func:`run`."""
    p = argparse.ArgumentParser(
        prog="python -m saturate.ray",
        description="Generate a saturate --domain dataset on a Ray cluster: one task per "
        "axiom file (phase 1), one per shard (phase 2), then a merge into the dataset the "
        "single-process run writes, byte for byte.",
    )
    p.add_argument("--domain", required=True, help="domains, comma-separated (e.g. SET or ALG,SET)")
    p.add_argument("--out", required=True, help="output root every worker sees")
    p.add_argument("--config", help="TOML config file")
    p.add_argument("--tptp", help="TPTP library root (default: the embedded axioms)")
    p.add_argument("--count", type=int, help="rows per cell")
    p.add_argument("--levels", help="levels, comma-separated")
    p.add_argument("--seed", type=int, help="run seed")
    p.add_argument("--shards", type=int, help="phase-2 tasks (default: cluster CPUs / cpus-per-task)")
    p.add_argument("--cpus-per-task", type=int, default=1, help="engine threads and Ray CPUs per task")
    p.add_argument("--max-retries", type=int, default=3, help="retries of a task whose worker died")
    p.add_argument("--address", help="Ray address (auto: the running cluster; default: local)")
    p.add_argument("--answer-format", choices=["plain", "tags", "json"])
    p.add_argument("--trace", action="store_true")
    p.add_argument("--format", choices=["parquet", "jsonl"])
    p.add_argument("--split-by", choices=["theorem", "source"])
    p.add_argument(
        "--problems", action="store_true", help="each problem file of the domains is a theory"
    )
    a = p.parse_args(argv)
    try:
        summary = run(
            a.out,
            domain=a.domain,
            config=a.config,
            tptp=a.tptp,
            count=a.count,
            levels=a.levels,
            seed=a.seed,
            shards=a.shards,
            cpus_per_task=a.cpus_per_task,
            max_retries=a.max_retries,
            address=a.address,
            answer_format=a.answer_format,
            trace=a.trace,
            format=a.format,
            split_by=a.split_by,
            problems=a.problems,
        )
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
