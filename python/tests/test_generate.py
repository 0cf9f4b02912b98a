"""saturate.generate runs the engine's generators in-process as the CLI
does: it returns the run summary, writes a dataset that reads back, gives
the same bytes for the same seed, and raises ValueError with the engine's
message on bad input."""

from __future__ import annotations

import json
import os

import pytest

import saturate


def test_the_summary_is_the_datasets_summary_json(eq_dataset):
    with open(os.path.join(eq_dataset, "summary.json")) as f:
        on_disk = json.load(f)
    with open(os.path.join(eq_dataset, "manifest.json")) as f:
        manifest = json.load(f)
    assert manifest["complete"] is True
    assert manifest["engine_version"] == saturate.__version__
    assert on_disk["total_rows"] > 0


def test_generate_returns_the_run_summary(tmp_path):
    out = tmp_path / "eq"
    summary = saturate.generate("eq", str(out), count=2, levels=[1, 2], seed=5, jobs=1)
    assert summary["dataset"] == str(out)
    assert summary["requested_rows"] == 3 * 2 * 2
    assert summary["total_rows"] + summary["shortfall"] == summary["requested_rows"]
    assert set(summary["cells"]) and all(k.split()[-1] in ("L1", "L2") for k in summary["cells"])
    with open(out / "summary.json") as f:
        on_disk = json.load(f)
    assert {k: v for k, v in summary.items() if k != "dataset"} == on_disk
    # The same seed gives the same bytes, whatever the thread count.
    again = tmp_path / "eq-again"
    saturate.generate("eq", str(again), count=2, levels="1,2", seed=5, jobs=2)
    for name in ("manifest.json", "summary.json"):
        assert (out / name).read_bytes() == (again / name).read_bytes()


def test_tptp_runs_write_under_the_domain_name(tmp_path):
    summary = saturate.generate("tptp", str(tmp_path), domain=["SET"], count=1, levels=[1], shard="1/2")
    assert summary["dataset"] == str(tmp_path / "SET-shard-1-of-2" / "SET-shard-1-of-2-tasks")
    assert os.path.isfile(os.path.join(summary["dataset"], "manifest.json"))


def test_a_bad_domain_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="NOPE"):
        saturate.generate("tptp", str(tmp_path), domain="NOPE", count=1)
    with pytest.raises(ValueError, match="nothing to do"):
        saturate.generate("tptp", str(tmp_path), count=1)
    with pytest.raises(ValueError, match="empty domain"):
        saturate.generate("tptp", str(tmp_path), domain="SET,,GRP")
    with pytest.raises(ValueError, match="apply to kind \"tptp\" only"):
        saturate.generate("eq", str(tmp_path), domain="SET")


def test_a_bad_config_is_a_value_error_naming_file_and_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("seed = 1\n[tasks.eq]\ncuont = 3\n")
    with pytest.raises(ValueError, match=r"bad\.toml:3:\d+: bad config: unknown field `cuont`"):
        saturate.generate("eq", str(tmp_path / "out"), config=str(bad))
    out_of_range = tmp_path / "range.toml"
    out_of_range.write_text("[tasks.eq]\nlevels = [0]\n")
    with pytest.raises(ValueError, match=r"no EQ level 0 \(levels start at 1\)"):
        saturate.generate("eq", str(tmp_path / "out"), config=str(out_of_range))
    with pytest.raises(ValueError, match="cannot read config"):
        saturate.generate("eq", str(tmp_path / "out"), config=str(tmp_path / "missing.toml"))
    assert not (tmp_path / "out").exists()


def test_bad_arguments_are_value_errors(tmp_path):
    out = str(tmp_path / "out")
    cases = [
        (dict(kind="fol"), "unknown run kind"),
        (dict(count=-1), "count=-1 is not in"),
        (dict(seed=-3), "seed=-3 is not in"),
        (dict(levels=[0]), "levels: 0 is not in 1-255"),
        (dict(levels=[]), "levels is empty"),
        (dict(levels="1,x"), "not a whole number"),
        (dict(levels=[256]), "levels: 256 is not in 1-255"),
        (dict(shard="3/2"), "expected 1 <= i <= N"),
        (dict(shard="half"), "expected \"i/N\""),
        (dict(jobs=100000), "jobs=100000 is not in"),
        (dict(count=0), "--count must be at least 1"),
    ]
    for kwargs, message in cases:
        kind = kwargs.pop("kind", "eq")
        with pytest.raises(ValueError, match=message):
            saturate.generate(kind, out, **kwargs)


def test_an_output_that_is_not_a_dataset_is_refused(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(ValueError):
        saturate.generate("eq", str(tmp_path / "mine"), count=1)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


def test_dataset_options_reach_the_rows(tmp_path):
    import json

    out = tmp_path / "eq"
    saturate.generate(
        "eq", str(out), count=2, levels=[1], seed=1, answer_format="tags", trace=True,
        format="jsonl", split=[60, 20, 20],
    )
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["format"] == "jsonl"
    assert manifest["presentation"]["answer_format"] == "tags"
    assert manifest["split_percent"] == [60, 20, 20]
    rows = [json.loads(line) for p in out.glob("*/*.jsonl") for line in p.read_text().splitlines()]
    assert rows and all(r["completion"].startswith("<answer>") for r in rows)
    assert all(r["trace"] for r in rows)
    assert all(saturate.score(r, r["completion"]) == 1.0 for r in rows)
    assert all(saturate.verify(r)["ok"] for r in rows)
    with pytest.raises(ValueError, match="split"):
        saturate.generate("eq", str(tmp_path / "bad"), split=[50, 50])
    with pytest.raises(ValueError, match="answer_format"):
        saturate.generate("eq", str(tmp_path / "bad"), answer_format="xml")
