"""Shared fixtures: small datasets of every family, generated in-process
through ``saturate.generate`` into a temporary folder (no CLI needed), and
their rows read back with pyarrow."""

from __future__ import annotations

import json
import os

import pytest

import saturate

pyarrow_parquet = pytest.importorskip(
    "pyarrow.parquet", reason="the tests read dataset shards with pyarrow (pip install pyarrow)"
)


def tree(root: str) -> dict[str, bytes]:
    """Every file below ``root`` (relative path -> bytes), to compare two
    dataset folders byte for byte."""
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, root)] = f.read()
    return out


def read_rows(dataset: str) -> list[dict]:
    """Every row of a dataset folder, in manifest order (config, split, shard)."""
    with open(os.path.join(dataset, "manifest.json")) as f:
        manifest = json.load(f)
    rows = []
    for config in sorted(manifest["configs"]):
        for split in sorted(manifest["configs"][config]["splits"]):
            for shard in manifest["configs"][config]["splits"][split]["shards"]:
                table = pyarrow_parquet.read_table(os.path.join(dataset, shard["file"]))
                rows.extend(table.to_pylist())
    assert rows, f"{dataset}: no rows"
    return rows


@pytest.fixture(scope="session")
def datasets_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("py-saturate-data")


@pytest.fixture(scope="session")
def tptp_dataset(datasets_dir) -> str:
    summary = saturate.generate(
        "tptp", str(datasets_dir / "tptp"), domain="SET", count=2, levels=[1, 2], seed=3
    )
    return summary["dataset"]


@pytest.fixture(scope="session")
def pl_dataset(datasets_dir) -> str:
    return saturate.generate("pl", str(datasets_dir / "pl"), count=3, seed=3)["dataset"]


@pytest.fixture(scope="session")
def pl2_dataset(datasets_dir) -> str:
    cfg = datasets_dir / "pl2.toml"
    cfg.write_text('[tasks.pl]\nfamilies = ["pl2"]\n[tasks.pl.pl2]\nsizes = [1]\n')
    return saturate.generate("pl", str(datasets_dir / "pl2"), count=1, seed=3, config=str(cfg))[
        "dataset"
    ]


@pytest.fixture(scope="session")
def eq_dataset(datasets_dir) -> str:
    return saturate.generate("eq", str(datasets_dir / "eq"), count=3, seed=3)["dataset"]


@pytest.fixture(scope="session")
def all_datasets(tptp_dataset, pl_dataset, pl2_dataset, eq_dataset) -> dict[str, str]:
    return {"tptp": tptp_dataset, "pl": pl_dataset, "pl2": pl2_dataset, "eq": eq_dataset}


@pytest.fixture(scope="session")
def rows(all_datasets) -> dict[str, list[dict]]:
    return {family: read_rows(d) for family, d in all_datasets.items()}


@pytest.fixture(scope="session")
def all_rows(rows) -> list[dict]:
    return [r for family in sorted(rows) for r in rows[family]]
