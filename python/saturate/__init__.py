"""saturate: certified logic-reasoning datasets, from Python.

The engine runs in-process (``saturate._native``, built from the Rust
crate): score model replies against dataset rows, re-verify rows, and
generate datasets, with no subprocess and with the GIL released while the
engine works.

>>> import saturate
>>> summary = saturate.generate("eq", "/tmp/eq", count=5)
>>> ds = saturate.load(summary["dataset"], "eq_pc")
>>> row = ds["train"][0]
>>> saturate.score(row, row["answer"])
1.0

In the training loop: ``create_dataset(name, size, seed, level=...)``
streams the rows of one config as they are read (``saturate.stream``),
``score_answer(answer, entry)`` scores a reply on one, ``Curriculum``
moves each config's difficulty towards a target success rate
(``saturate.curriculum``), and ``dedup`` reports the rows of one dataset
found in another up to variable renaming and clause order.
``saturate.verifiers`` and ``saturate.reasoning_gym`` adapt them to those
frameworks (optional extras).

``score``, ``score_detail``, ``score_batch``, ``verify``, ``generate``,
``plan`` and ``merge`` are documented on the functions themselves;
``saturate.rewards`` holds the TRL ``GRPOTrainer`` reward function,
``saturate/lm_eval/`` the lm-evaluation-harness tasks and ``saturate.ray``
the driver that runs a ``--domain`` dataset on a Ray cluster (``python -m
saturate.ray``).
"""

from __future__ import annotations

import os
from typing import Any

from ._native import (
    __version__,
    generate,
    merge,
    plan,
    score,
    score_batch,
    score_detail,
    verify,
)
from .curriculum import Curriculum
from .dedup import dedup
from .stream import Dataset, configs, create_dataset, score_answer

__all__ = [
    "Curriculum",
    "Dataset",
    "__version__",
    "configs",
    "create_dataset",
    "dedup",
    "score_answer",
    "generate",
    "load",
    "merge",
    "plan",
    "score",
    "score_batch",
    "score_detail",
    "verify",
]


def load(dir: str | os.PathLike[str], config: str | None = None, **kwargs: Any) -> Any:
    """Load a saturate dataset folder with Hugging Face ``datasets``.

    ``dir`` is the folder holding ``manifest.json`` and the ``README.md``
    card (for a ``--domain`` run, ``<out>/<DOMAINS>/<DOMAINS>-tasks``); ``config``
    is one of its configs (a task name such as ``"eq_pc"`` or
    ``"conjecture_entailment"``; the card lists them), and may be left out
    when the folder has one config. Extra keyword arguments go to
    ``datasets.load_dataset`` (``split="test"`` for one split). Returns what
    ``datasets.load_dataset`` returns: a ``DatasetDict`` of the splits.

    Raises ``ImportError`` naming the package to install when ``datasets``
    is missing, and ``ValueError`` when ``dir`` is not a dataset folder.
    """
    try:
        import datasets
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "saturate.load needs Hugging Face datasets: pip install datasets"
        ) from e
    path = os.fspath(dir)
    if not os.path.isfile(os.path.join(path, "manifest.json")):
        raise ValueError(
            f"{path}: not a saturate dataset folder (no manifest.json); give the "
            "folder a run wrote, e.g. <out>/SET/SET-tasks for a --domain run"
        )
    return datasets.load_dataset(path, config, **kwargs)
