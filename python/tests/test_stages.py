"""The two stages of a domain run from Python: ``plan`` names the files
and units, ``generate(stage="saturate")`` writes one artifact per file
(dealt out by ``shard``), ``generate(stage="generate")`` shards merged by
``merge`` are byte for byte the one-process run, and phase 2 without its
artifacts is a ValueError."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import saturate
from conftest import tree

SMOKE = str(Path(__file__).resolve().parents[2] / "configs" / "smoke.toml")


def test_plan_saturate_generate_merge(tmp_path):
    kw = dict(domain="SET", config=SMOKE, levels=[1], seed=4)
    plan = saturate.plan(**kw)
    assert plan["name"] == "SET"
    assert len(plan["files"]) == 3 and all(f.startswith("SET") for f in plan["files"])
    assert plan["units"] == 3  # three families, one level

    out = tmp_path / "out"
    with pytest.raises(ValueError, match="no saturation artifact"):
        saturate.generate("tptp", str(out), stage="generate", **kw)
    done = []
    for i in (1, 2, 3):
        s = saturate.generate("tptp", str(out), stage="saturate", shard=(i, 3), **kw)
        assert s["dataset"] is None and s["stage"] == "saturate"
        assert [a["reused"] for a in s["artifacts"]] == [False]
        assert os.path.isfile(os.path.join(s["artifacts"][0]["artifact"], "state.bin.zst"))
        done.append(s["artifacts"][0]["file"])
    assert sorted(done) == sorted(plan["files"])

    dirs = []
    for i in (1, 2, 3):
        s = saturate.generate("tptp", str(out), stage="generate", shard=(i, 3), **kw)
        assert all(a["reused"] for a in s["artifacts"])
        dirs.append(s["dataset"])
    merged = tmp_path / "merged"
    m = saturate.merge(str(merged), dirs)
    assert m["shards"] == 3 and m["rows"] == m["summary"]["total_rows"] > 0

    one = saturate.generate("tptp", str(tmp_path / "one"), **kw)
    assert [a["reused"] for a in one["artifacts"]] == [False] * 3
    assert tree(str(merged)) == tree(one["dataset"])


def test_bad_stage_arguments_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="unknown stage"):
        saturate.generate("tptp", str(tmp_path), domain="SET", stage="later")
    with pytest.raises(ValueError, match="apply to kind"):
        saturate.generate("eq", str(tmp_path), stage="saturate")
    with pytest.raises(ValueError, match="NOPE"):
        saturate.plan(domain="NOPE")
    folder = tmp_path / "not-a-shard"
    folder.mkdir()
    with pytest.raises(ValueError, match="not a shard|manifest"):
        saturate.merge(str(tmp_path / "m"), [str(folder)])
    # An output inside an input is refused before anything is read.
    with pytest.raises(ValueError, match="lies inside the input"):
        saturate.merge(str(folder / "m"), [str(folder)])


def test_problem_files_as_theories(tmp_path):
    """``problems=True`` takes each problem file of the domains as a theory
    (its include and its own axioms), as ``--problems`` does; the run is
    named for it, phase 1 writes one artifact per problem file, and a
    family without a stage refuses the option."""
    root = tmp_path / "tptp"
    axioms = Path(__file__).resolve().parents[2] / "axioms" / "GRP" / "GRP-equational.ax"
    (root / "Axioms").mkdir(parents=True)
    (root / "Axioms" / "GRP900-0.ax").write_text(axioms.read_text())
    grp = root / "Problems" / "GRP"
    grp.mkdir(parents=True)
    (grp / "GRP901-1.p").write_text(
        "include('Axioms/GRP900-0.ax').\n"
        "cnf(goal, negated_conjecture, multiply(a, identity) != a).\n"
    )
    (grp / "GRP903-1.p").write_text(
        "include('Axioms/GRP900-0.ax').\n"
        "cnf(extra, hypothesis, multiply(b, b) = identity).\n"
        "cnf(goal, negated_conjecture, multiply(b, c) != c).\n"
    )
    kw = dict(domain="GRP", config=SMOKE, levels=[1], seed=4, tptp=str(root))
    plan = saturate.plan(problems=True, **kw)
    assert plan["name"].endswith("-problems"), plan
    assert sorted(plan["files"]) == ["GRP901-1", "GRP903-1"]
    s = saturate.generate("tptp", str(tmp_path / "out"), stage="saturate", problems=True, **kw)
    assert sorted(a["file"] for a in s["artifacts"]) == sorted(plan["files"])
    with pytest.raises(ValueError, match="apply to kind"):
        saturate.generate("eq", str(tmp_path / "eq"), problems=True)
