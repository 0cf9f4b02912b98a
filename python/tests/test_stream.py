"""saturate.create_dataset: the rows, byte for byte, of the same run
written by saturate.generate (the CLI's code path) with --format jsonl;
gold answers score 1.0; laziness, determinism, the artifact cache and
errors as Python exceptions."""

from __future__ import annotations

import glob
import json
import os
import time

import pytest

import saturate
from saturate import stream

SIZE, SEED, LEVEL = 20, 1, 1


def written_lines(root: str) -> dict[str, list[str]]:
    """Every JSON line of a --format jsonl dataset under ``root``, per
    config, in id order."""
    out: dict[str, list[str]] = {}
    for f in glob.glob(os.path.join(root, "**", "*.jsonl"), recursive=True):
        if "rejects" in f:
            continue
        with open(f) as fh:
            for line in fh:
                line = line.rstrip("\n")
                out.setdefault(json.loads(line)["task"], []).append(line)
    return {k: sorted(v, key=lambda l: json.loads(l)["id"]) for k, v in out.items()}


@pytest.fixture(scope="module")
def cli_rows(tmp_path_factory):
    """The rows of every family's run at SIZE rows per cell, SEED, LEVEL."""
    d = tmp_path_factory.mktemp("cli-rows")
    pl2 = d / "pl2.toml"
    pl2.write_text(f'[tasks.pl]\nfamilies = ["pl2"]\n[tasks.pl.pl2]\nsizes = [{LEVEL}]\n')
    tptp = d / "tptp.toml"
    tptp.write_text(
        '[tasks.tptp]\nfamilies = ["entailment", "selection", "reconstruction", "derivation"]\n'
    )
    common = dict(count=SIZE, seed=SEED, levels=[LEVEL], format="jsonl")
    saturate.generate(
        "tptp", str(d / "tptp"), domain=stream.DEFAULT_TPTP_DOMAIN, config=str(tptp), **common
    )
    saturate.generate("pl", str(d / "pl"), **common)
    saturate.generate("pl", str(d / "pl2"), config=str(pl2), **common)
    saturate.generate("eq", str(d / "eq"), **common)
    saturate.generate("equiv", str(d / "equiv"), **common)
    saturate.generate("toy", str(d / "toy"), **common)
    return written_lines(str(d))


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return str(tmp_path_factory.mktemp("artifact-cache"))


def config_names():
    return [c["name"] for c in stream.configs()]


def test_every_registered_config_is_listed():
    names = config_names()
    assert len(names) == len(set(names))
    for n in ["conjecture_entailment", "pl1_proof_checking", "pl2_proof_writing", "eq_pc",
              "equivalence_fol", "toy_parity"]:
        assert n in names


@pytest.mark.parametrize("name", config_names())
def test_rows_equal_the_written_rows_and_gold_scores_one(name, cli_rows, cache):
    entry = next(c for c in stream.configs() if c["name"] == name)
    ds = saturate.create_dataset(name, SIZE, seed=SEED, level=LEVEL, cache=cache) \
        if entry["staged"] else saturate.create_dataset(name, SIZE, seed=SEED, level=LEVEL)
    got = [ds.line(i) for i in range(len(ds))]
    want = cli_rows.get(name, [])
    assert got, f"{name}: no rows"
    if entry["family"] == "pl2":
        # Several cells (one per structured family): the first SIZE rows
        # of the run, in run order, all of them rows the run wrote.
        assert len(got) == min(SIZE, len(want))
        assert set(got) <= set(want)
    else:
        assert got == want
    for i, line in enumerate(got):
        row = ds[i]
        assert json.loads(line) == row
        assert row["task"] == name and row["level"] == LEVEL
        assert saturate.score_answer(row["completion"], row) == 1.0, row["id"]
    # A cheap answer earns nothing.
    assert saturate.score_answer("", ds[0]) == 0.0
    assert saturate.score_answer(None, ds[0]) == 0.0


def test_same_inputs_same_rows_whatever_the_threads():
    a = [r["id"] for r in saturate.create_dataset("eq_er", 12, seed=5, level=2, jobs=1)]
    b = [r["id"] for r in saturate.create_dataset("eq_er", 12, seed=5, level=2, jobs=2)]
    assert a == b and len(a) == 12
    c = saturate.create_dataset("eq_er", 12, seed=6, level=2)
    assert [r["prompt"] for r in c] != [
        r["prompt"] for r in saturate.create_dataset("eq_er", 12, seed=5, level=2)
    ]


def test_rows_are_made_as_they_are_read():
    t = time.time()
    ds = saturate.create_dataset("eq_pc", 1_000_000, seed=2, level=1)
    first = ds[0]
    assert first["id"].endswith("00000") or first["id"].startswith("eq_pc-")
    assert ds.summary() is None  # not run to the end
    # One batch (a few dozen candidates), not a million rows.
    assert time.time() - t < 20
    # Indexing is stable; iteration yields the same rows.
    assert ds[0] == first
    it = iter(ds)
    assert next(it) == first
    del ds, it


def test_staged_configs_reuse_their_artifacts(tmp_path):
    cache = str(tmp_path / "cache")
    a = list(saturate.create_dataset("conjecture_entailment", 3, seed=1, level=1, cache=cache))
    arts = sorted(glob.glob(os.path.join(cache, "artifacts", "*")))
    assert arts, "phase 1 left no artifact in the cache"
    stamps = {p: os.stat(p).st_mtime_ns for p in arts}
    b = list(saturate.create_dataset("conjecture_entailment", 3, seed=1, level=1, cache=cache))
    assert a == b
    assert {p: os.stat(p).st_mtime_ns for p in arts} == stamps
    # Nothing else is written there: no dataset, no run folder.
    assert sorted(os.listdir(cache)) == ["artifacts"]


def test_errors_are_python_exceptions_with_the_engine_message(tmp_path):
    with pytest.raises(ValueError, match="unknown config"):
        saturate.create_dataset("no_such_config", 3)
    with pytest.raises(ValueError, match="size"):
        saturate.create_dataset("eq_pc", 0)
    with pytest.raises(TypeError, match="unknown option"):
        saturate.create_dataset("eq_pc", 3, colour="blue")
    bad = tmp_path / "bad.toml"
    bad.write_text("[tasks.eq]\ncount = \"many\"\n")
    with pytest.raises(ValueError, match="bad config"):
        saturate.create_dataset("eq_pc", 3, config=str(bad))
    with pytest.raises(ValueError, match="levels"):
        saturate.create_dataset("eq_pc", 3, level=0)
    with pytest.raises(ValueError, match="domain"):
        saturate.create_dataset("eq_pc", 3, domain="SET")
    ds = saturate.create_dataset("conjecture_entailment", 3, domain="NOPE",
                                 cache=str(tmp_path / "c"))
    with pytest.raises(ValueError, match="NOPE"):
        list(ds)


def test_rows_come_in_id_order_when_the_balance_holds_some_back(tmp_path, cache):
    """Premise selection at level 3 (LAT, seed 1) holds rows back for its
    answer balance and writes them later; the stream still yields the
    dataset's rows in id order, equal line for line."""
    cfg = tmp_path / "sel.toml"
    cfg.write_text('[tasks.tptp]\nfamilies = ["selection"]\n')
    saturate.generate("tptp", str(tmp_path / "out"), domain="LAT", config=str(cfg), count=20,
                      seed=1, levels=[3], format="jsonl")
    want = written_lines(str(tmp_path / "out"))["premise_selection"]
    ds = saturate.create_dataset("premise_selection", 20, seed=1, level=3, cache=cache)
    got = [ds.line(i) for i in range(len(ds))]
    ids = [json.loads(l)["id"] for l in got]
    assert ids == sorted(ids)
    assert got == want
