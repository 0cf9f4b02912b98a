"""The toy family (the engine's `toy-family` feature; build the extension
with `maturin build --features toy-family`) goes through the Python API
with nothing written for it: `generate("toy")` from its `[tasks.toy]`
section, `verify` and `score` on its rows, `merge` of its shards. Skipped
when the extension was built without the feature."""

from __future__ import annotations

import pytest

import saturate

from conftest import read_rows, tree


def _generate(out, config, **kwargs):
    try:
        return saturate.generate("toy", str(out), config=str(config), seed=3, **kwargs)
    except ValueError as e:
        if "unknown run kind" in str(e):
            pytest.skip("the extension was built without the toy-family feature")
        raise


def test_the_toy_family_goes_through_the_python_api(tmp_path):
    config = tmp_path / "toy.toml"
    config.write_text("[tasks.toy]\ncount = 4\nlevels = [1, 2]\n")
    whole = tmp_path / "whole"
    summary = _generate(whole, config)
    assert summary["dataset"] == str(whole)
    assert summary["requested_rows"] == 8 and summary["total_rows"] == 8
    rows = read_rows(str(whole))
    assert {r["task"] for r in rows} == {"toy_parity"}
    for r in rows:
        assert saturate.verify(r)["ok"], r["id"]
        assert saturate.score(r, f"<answer>{r['answer']}</answer>") == 1.0
        other = "no" if r["answer"] == "yes" else "yes"
        assert saturate.score(r, other) == 0.0
    # Two shards merge into the unsharded dataset, byte for byte.
    parts = [tmp_path / "p1", tmp_path / "p2"]
    for i, p in enumerate(parts, 1):
        _generate(p, config, shard=f"{i}/2")
    merged = tmp_path / "merged"
    saturate.merge(str(merged), [str(p) for p in parts])
    assert tree(str(merged)) == tree(str(whole))
    # Stage options belong to the staged family only.
    with pytest.raises(ValueError, match="apply to kind \"tptp\" only"):
        saturate.generate("toy", str(tmp_path / "x"), domain="SET")
