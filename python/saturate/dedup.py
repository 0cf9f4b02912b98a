"""Leakage and duplicates: ``dedup`` (the Python face of ``saturate dedup``).

A row's problem is its ``task`` and its prompt brought to a canonical text
(variables renamed by first occurrence, each run of listed clauses,
premises or equations sorted); two rows match when those agree. See the
engine's ``pipeline::dedup`` for the exact rule.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from . import _native


def problem_key(row: Mapping[str, Any]) -> str:
    """The key ``dedup`` compares ``row`` by (32 hex digits)."""
    return _native.problem_key(row["task"], row["prompt"] or "")


def dedup(
    dataset: str | os.PathLike[str] | Iterable[Mapping[str, Any]],
    reference: str | os.PathLike[str] | Iterable[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Rows of ``dataset`` whose problem an earlier row of it, its train
    split, or ``reference`` already poses, up to variable renaming and the
    order of listed clauses.

    Each argument is a dataset folder or an iterable of rows (dicts with
    ``id``, ``task`` and ``prompt``, such as ``create_dataset``'s; rows
    given so have no splits). Returns ``{"configs": {config: {"rows",
    "within", "in_train", "in_reference"}}, "total": {...}, "examples":
    [[id, id it repeats, "dataset" | "train" | "reference"], ...]}``, as
    ``saturate dedup --json`` prints it.
    """
    if isinstance(dataset, (str, os.PathLike)) and (
        reference is None or isinstance(reference, (str, os.PathLike))
    ):
        return _native.dedup(os.fspath(dataset), None if reference is None else os.fspath(reference))
    rows = _rows(dataset)
    refs = None if reference is None else _rows(reference)
    ref_keys: dict[str, str] = {}
    for r in refs or []:
        ref_keys.setdefault(problem_key(r), r["id"])
    configs: dict[str, dict[str, Any]] = {}
    first: dict[str, str] = {}
    examples: list[list[str]] = []
    for r in rows:
        k = problem_key(r)
        c = configs.setdefault(
            r["task"],
            {"rows": 0, "within": 0, "in_train": {}, "in_reference": None if refs is None else 0},
        )
        c["rows"] += 1
        if k in first:
            c["within"] += 1
            if len(examples) < 10:
                examples.append([r["id"], first[k], "dataset"])
        else:
            first[k] = r["id"]
        if refs is not None and k in ref_keys:
            c["in_reference"] += 1
            if len(examples) < 10:
                examples.append([r["id"], ref_keys[k], "reference"])
    total = {
        "rows": sum(c["rows"] for c in configs.values()),
        "within": sum(c["within"] for c in configs.values()),
        "in_train": {},
        "in_reference": None if refs is None else sum(c["in_reference"] for c in configs.values()),
    }
    return {"configs": dict(sorted(configs.items())), "total": total, "examples": examples}


def _rows(x: Any) -> list[Mapping[str, Any]]:
    if isinstance(x, (str, os.PathLike)):
        raise TypeError(
            "give both arguments as dataset folders, or both as rows (read a folder's rows "
            "with saturate.load)"
        )
    return list(x)


__all__ = ["dedup", "problem_key"]
