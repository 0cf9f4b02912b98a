"""Type stubs of the native module (built from python/src/lib.rs)."""

from __future__ import annotations

import os
from typing import Any, Iterable, Mapping, Sequence, Union

Completion = Union[str, Mapping[str, Any], Sequence[Mapping[str, Any]]]

__version__: str

def score(row: Mapping[str, Any], completion: Completion) -> float: ...
def score_detail(row: Mapping[str, Any], completion: Completion) -> dict[str, Any]: ...
def score_batch(rows: Iterable[Mapping[str, Any]], completions: Iterable[Completion]) -> list[float]: ...
def verify(row: Mapping[str, Any]) -> dict[str, Any]: ...
def generate(
    kind: str,
    out: str | os.PathLike[str],
    *,
    domain: str | Sequence[str] | None = None,
    count: int | None = None,
    seed: int | None = None,
    levels: int | str | Sequence[int] | None = None,
    config: str | os.PathLike[str] | None = None,
    jobs: int = 0,
    shard: str | tuple[int, int] | None = None,
    tptp: str | os.PathLike[str] | None = None,
    answer_format: str | None = None,
    trace: bool = False,
    format: str | None = None,
    split_by: str | None = None,
    split: Sequence[int] | None = None,
    stage: str = "all",
    problems: bool = False,
) -> dict[str, Any]: ...
def plan(
    *,
    domain: str | Sequence[str] | None = None,
    config: str | os.PathLike[str] | None = None,
    tptp: str | os.PathLike[str] | None = None,
    count: int | None = None,
    levels: int | str | Sequence[int] | None = None,
    seed: int | None = None,
    problems: bool = False,
) -> dict[str, Any]: ...
def merge(out: str | os.PathLike[str], dirs: Sequence[str | os.PathLike[str]]) -> dict[str, Any]: ...
def configs() -> list[dict[str, Any]]: ...

class RowStream:
    def __iter__(self) -> RowStream: ...
    def __next__(self) -> str: ...
    def summary(self) -> dict[str, Any] | None: ...

def stream(
    name: str,
    count: int,
    *,
    seed: int | None = None,
    levels: int | str | Sequence[int] | None = None,
    limit: int | None = None,
    domain: str | Sequence[str] | None = None,
    tptp: str | os.PathLike[str] | None = None,
    cache: str | os.PathLike[str] | None = None,
    config: str | os.PathLike[str] | None = None,
    jobs: int = 0,
    answer_format: str | None = None,
    trace: bool = False,
) -> RowStream: ...
def dedup(
    dataset: str | os.PathLike[str], reference: str | os.PathLike[str] | None = None
) -> dict[str, Any]: ...
def problem_key(task: str, prompt: str) -> str: ...
