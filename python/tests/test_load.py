"""Every config of every family's dataset loads with Hugging Face datasets
(datasets.load_dataset(dir, config) and the saturate.load wrapper), and
the loaded rows score and verify like the rows read from the shards."""

from __future__ import annotations

import json
import os

import pytest

import saturate

datasets = pytest.importorskip(
    "datasets", reason="Hugging Face datasets is not installed (pip install datasets)"
)


def _configs(dataset: str) -> list[str]:
    with open(os.path.join(dataset, "manifest.json")) as f:
        return sorted(json.load(f)["configs"])


def test_every_config_loads_with_datasets(all_datasets, rows):
    for family, dataset in all_datasets.items():
        configs = _configs(dataset)
        assert configs, family
        loaded_rows = 0
        for config in configs:
            ds = datasets.load_dataset(dataset, config)
            assert set(ds) <= {"train", "validation", "test"} and ds, (family, config)
            for split in ds.values():
                assert {"id", "task", "level", "prompt", "answer", "metadata", "certificate"} <= set(
                    split.column_names
                )
                assert set(split["task"]) == {config}
                loaded_rows += len(split)
            # The rows datasets yields score and verify.
            first = next(iter(ds.values()))[0]
            assert saturate.score(first, first["answer"]) == 1.0
            assert saturate.verify(first)["ok"] is True
            same = saturate.load(dataset, config)
            assert {k: len(v) for k, v in same.items()} == {k: len(v) for k, v in ds.items()}
        assert loaded_rows == len(rows[family]), family


def test_load_refuses_a_folder_that_is_not_a_dataset(tmp_path):
    with pytest.raises(ValueError, match="manifest.json"):
        saturate.load(tmp_path, "eq_pc")
