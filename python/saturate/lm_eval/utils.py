"""Dataset loading and scoring for the saturate lm-eval tasks.

lm-eval imports this file by path (``!function utils.<name>`` in the task
YAML files beside it).

The dataset folder (the one holding ``manifest.json``; for a ``--domain``
run ``<out>/<DOMAINS>/<DOMAINS>-tasks``) comes from lm-eval's ``--metadata``
(``{"dataset_path": "out/eq"}``) or else the ``SATURATE_DATASET``
environment variable. The split evaluated is ``test``; ``{"split":
"validation"}`` in ``--metadata`` (or ``SATURATE_SPLIT``) evaluates
another one (small datasets may have no ``test`` rows for a config).

Each generation is scored with ``saturate.score_detail``: the engine's
answer extractor and the task's own checker, as ``saturate score`` does.
"""

from __future__ import annotations

import os
from typing import Any

import saturate


def load_dataset(config: str | None = None, **kwargs: Any) -> Any:
    """The ``custom_dataset`` of every saturate task: the ``config`` of
    the dataset folder named by ``dataset_path`` (lm-eval metadata) or
    ``SATURATE_DATASET``, as a ``DatasetDict``; with a ``split`` (metadata
    or ``SATURATE_SPLIT``) that split is served as ``test``."""
    import datasets

    path = kwargs.get("dataset_path") or os.environ.get("SATURATE_DATASET")
    if not path:
        raise ValueError(
            "saturate lm-eval tasks: no dataset folder; pass "
            "--metadata '{\"dataset_path\": \"DIR\"}' or set SATURATE_DATASET=DIR "
            "(DIR holds manifest.json, e.g. out/SET/SET-tasks)"
        )
    if config is None:
        raise ValueError("saturate lm-eval tasks: the task YAML names no dataset config")
    loaded = saturate.load(path, config)
    split = kwargs.get("split") or os.environ.get("SATURATE_SPLIT")
    if split:
        if split not in loaded:
            raise ValueError(
                f"{path}: config {config!r} has no split {split!r} (it has {sorted(loaded)})"
            )
        return datasets.DatasetDict({"test": loaded[split]})
    if "test" not in loaded:
        raise ValueError(
            f"{path}: config {config!r} has no test split (it has {sorted(loaded)}); "
            "choose one with --metadata '{\"split\": \"train\"}' or SATURATE_SPLIT"
        )
    return loaded


def process_results(doc: dict[str, Any], results: list[Any]) -> dict[str, float]:
    """Score the first generation for ``doc`` (a dataset row): ``score``
    (the engine's score, 0-1) and ``well_formed`` (1 when an answer in the
    task's format was found)."""
    reply = results[0] if results else ""
    detail = saturate.score_detail(doc, reply)
    return {
        "score": float(detail["score"]),
        "well_formed": 1.0 if detail["well_formed"] else 0.0,
    }
