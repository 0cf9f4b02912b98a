"""saturate.ray on a local Ray cluster of two workers: phase 1 one task per
axiom file, phase 2 one task per shard, then a merge task. The merged
dataset is byte for byte the single-process run's, also when a worker is
killed (SIGKILL) mid-task and Ray retries the task; a second run reuses
every artifact."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import saturate
from conftest import tree

if os.environ.get("CI"):
    import ray  # CI installs Ray: its absence is a failure there
else:
    ray = pytest.importorskip("ray", reason="the Ray driver test needs Ray (pip install 'ray[default]')")

import saturate.ray as sray

SMOKE = str(Path(__file__).resolve().parents[2] / "configs" / "smoke.toml")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    marker = tmp_path_factory.mktemp("ray-marks") / "killed"
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=80 * 1024 * 1024,
        log_to_driver=False,
        runtime_env={"env_vars": {"SATURATE_RAY_KILL_ONCE": f"generate:{marker}"}},
    )
    yield marker
    ray.shutdown()


def test_ray_run_is_the_single_process_run_despite_a_killed_worker(tmp_path, cluster):
    kw = dict(domain="SET", config=SMOKE, levels=[1, 2], seed=11)
    single = saturate.generate("tptp", str(tmp_path / "one"), jobs=2, **kw)
    lines = []
    summary = sray.run(str(tmp_path / "ray"), shards=3, max_retries=2, log=lines.append, **kw)
    # One phase-2 task was killed (the hook left its marker) and retried.
    assert cluster.exists(), "the kill hook never fired"
    assert summary["dataset"] == str(tmp_path / "ray" / "SET" / "SET-tasks")
    assert tree(summary["dataset"]) == tree(single["dataset"])
    assert summary["rows"] == single["total_rows"]
    assert len(summary["artifacts"]) == 3 and not any(a["reused"] for a in summary["artifacts"])
    assert len(summary["shards"]) == 3
    assert any("phase 1" in l for l in lines) and any("merged" in l for l in lines)

    # Another seed on the same output root: phase 1 is reused.
    again = sray.run(str(tmp_path / "ray"), shards=2, log=lines.append, **{**kw, "seed": 12})
    assert all(a["reused"] for a in again["artifacts"])
    assert again["rows"] > 0


def test_bad_driver_arguments_are_value_errors(tmp_path, cluster):
    with pytest.raises(ValueError, match="shards must be between 1"):
        sray.run(str(tmp_path), domain="SET", config=SMOKE, levels=[1], shards=99)
    with pytest.raises(ValueError, match="cpus_per_task"):
        sray.run(str(tmp_path), domain="SET", cpus_per_task=0)
    with pytest.raises(ValueError, match="NOPE"):
        sray.run(str(tmp_path), domain="NOPE")
