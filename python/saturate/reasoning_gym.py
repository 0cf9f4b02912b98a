"""reasoning-gym adapter: every saturate config as a reasoning-gym dataset.

``import saturate.reasoning_gym`` registers ``saturate_<config>`` for
every config ``saturate.configs()`` lists (``saturate_eq_pc``,
``saturate_conjecture_entailment``, ...), so that::

    import reasoning_gym
    import saturate.reasoning_gym  # noqa: F401 - registers the datasets

    ds = reasoning_gym.create_dataset("saturate_eq_pc", size=50, seed=1, level=2)
    entry = ds[0]       # {"question", "answer", "metadata"}
    ds.score_answer(model_reply, entry)

The rows are ``saturate.create_dataset(config, size, seed, level=level)``'s
(made lazily, as they are read); ``question`` is the row's prompt,
``answer`` its gold answer, and ``metadata`` holds the whole row under
``saturate_row`` (what ``score_answer`` scores against, with the
engine's scorer). Needs ``pip install reasoning-gym`` (the extra
``saturate[reasoning-gym]``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from reasoning_gym.dataset import ProceduralDataset
from reasoning_gym.factory import DATASETS, register_dataset

from .stream import configs, create_dataset, score_answer

#: The prefix of the registered names.
PREFIX = "saturate_"


@dataclass
class SaturateConfig:
    """A saturate dataset's settings, as reasoning-gym passes them
    (``create_dataset(name, **config)``): ``size`` rows, ``seed`` (default
    0: saturate's rows never depend on a random state), ``level`` (one
    level, or None for the family's default levels), ``domain`` (TPTP
    configs) and ``answer_format`` ("plain", "tags", "json")."""

    size: int = 500
    seed: Optional[int] = 0
    level: Optional[int] = 1
    domain: Optional[str] = None
    answer_format: Optional[str] = None

    def validate(self) -> None:
        """Refuses a size below 1 or a level below 1."""
        if self.size < 1:
            raise ValueError(f"size must be at least 1, got {self.size}")
        if self.level is not None and self.level < 1:
            raise ValueError(f"level must be at least 1, got {self.level}")


class SaturateDataset(ProceduralDataset):
    """The rows of one saturate config as a reasoning-gym dataset (the
    class ``saturate_<config>`` is registered with; ``config_name`` names
    the config)."""

    config_name: str = ""

    def __init__(self, config: SaturateConfig) -> None:
        seed = 0 if config.seed is None else config.seed
        super().__init__(config=config, seed=seed, size=config.size)
        options: dict[str, Any] = {}
        if config.domain is not None:
            options["domain"] = config.domain
        if config.answer_format is not None:
            options["answer_format"] = config.answer_format
        self.rows = create_dataset(
            self.config_name, config.size, seed=seed, level=config.level, **options
        )

    def __len__(self) -> int:
        # Fewer than `size` when the engine's cell came up short.
        return len(self.rows)

    def __getitem__(self, idx: int) -> dict[str, Any]:
        row = self.rows[idx]
        return {
            "question": row["prompt"],
            "answer": row["answer"],
            "metadata": {
                "source_dataset": PREFIX + self.config_name,
                "source_index": idx,
                "task": row["task"],
                "level": row["level"],
                "id": row["id"],
                "saturate_row": row,
            },
        }

    def score_answer(self, answer: Optional[str], entry: dict[str, Any]) -> float:
        """The engine's score of ``answer`` (the model's reply) on ``entry``."""
        return score_answer(answer, entry["metadata"]["saturate_row"])


def register() -> list[str]:
    """Registers ``saturate_<config>`` for every config (those already
    registered are left alone); returns the names."""
    names = []
    for c in configs():
        name = PREFIX + c["name"]
        names.append(name)
        if name in DATASETS:
            continue
        cls = type(
            f"Saturate_{c['name']}",
            (SaturateDataset,),
            {"config_name": c["name"], "__module__": __name__},
        )
        register_dataset(name, cls, SaturateConfig)
    return names


REGISTERED = register()

__all__ = ["PREFIX", "REGISTERED", "SaturateConfig", "SaturateDataset", "register"]
