"""Reward functions for reinforcement learning on saturate datasets.

``saturate_reward`` has the signature TRL's ``GRPOTrainer`` calls reward
functions with: the prompts and completions of a batch as lists, and every
other dataset column as a keyword argument holding one value per
completion. It scores every completion with the engine's own scorer (the
same answer extraction and checkers as ``saturate score``), in parallel on
the engine's threads, and returns one float per completion: 1.0 for a
correct answer, 0.0 for a wrong, malformed or missing one, partial credit
where the task gives it.

Example: GRPO on a generated EQ dataset::

    import saturate
    from saturate.rewards import saturate_reward
    from trl import GRPOConfig, GRPOTrainer

    summary = saturate.generate("eq", "data/eq", count=200)
    train = saturate.load(summary["dataset"], "eq_pc")["train"]
    trainer = GRPOTrainer(
        model="Qwen/Qwen2.5-0.5B-Instruct",
        reward_funcs=saturate_reward,
        args=GRPOConfig(output_dir="grpo-eq", remove_unused_columns=False),
        train_dataset=train,
    )
    trainer.train()

The dataset's ``prompt`` column is what the model sees; keep the other
columns (``id``, ``task``, ``level``, ``answer``, ``metadata``,
``certificate``, ...) in the dataset, since the scorer needs them (TRL
passes them to the reward function; ``remove_unused_columns=False`` keeps
them). For a conversational dataset (``prompt`` turned into a list of chat
messages) the completions arrive as chat messages too; the content of the
last assistant message is scored.
"""

from __future__ import annotations

from typing import Any, Sequence

from ._native import score_batch

#: Columns the scorer needs, passed by TRL as keyword lists.
REQUIRED_COLUMNS = ("id", "task", "answer", "metadata", "certificate")
#: Columns used when present (None otherwise).
OPTIONAL_COLUMNS = ("level", "domain", "source")


def _prompt_text(prompt: Any) -> str | None:
    """The text of a prompt: the string, or the last user message's
    content of a conversational prompt (scorers never read it; it keeps the
    row whole)."""
    if prompt is None or isinstance(prompt, str):
        return prompt
    if isinstance(prompt, (list, tuple)):
        for message in reversed(prompt):
            if isinstance(message, dict) and message.get("role") == "user":
                content = message.get("content")
                return content if isinstance(content, str) else None
    return None


def rows_from_columns(
    n: int, prompts: Sequence[Any] | None, columns: dict[str, Any]
) -> list[dict[str, Any]]:
    """Rebuild ``n`` dataset rows from column lists as TRL passes them.

    ``columns`` maps column names to lists of ``n`` values (the reward
    function's keyword arguments); other keywords (``trainer_state``,
    ``completion_ids``, columns the scorer does not read) are ignored.
    Raises ``ValueError`` naming a missing column or a list of the wrong
    length.
    """
    for name in REQUIRED_COLUMNS:
        if name not in columns:
            raise ValueError(
                f"saturate_reward: no {name!r} column among the keyword arguments "
                f"(got {sorted(columns)}); keep the saturate dataset's columns in the "
                "training dataset (GRPOConfig(remove_unused_columns=False))"
            )
    used = [c for c in REQUIRED_COLUMNS + OPTIONAL_COLUMNS if c in columns]
    for name in used:
        values = columns[name]
        if len(values) != n:
            raise ValueError(
                f"saturate_reward: column {name!r} has {len(values)} values for "
                f"{n} completions"
            )
    if prompts is not None and len(prompts) != n:
        raise ValueError(
            f"saturate_reward: {len(prompts)} prompts for {n} completions"
        )
    rows = []
    for i in range(n):
        row = {name: columns[name][i] for name in used}
        for name in OPTIONAL_COLUMNS:
            row.setdefault(name, None)
        row["prompt"] = _prompt_text(prompts[i]) if prompts is not None else None
        rows.append(row)
    return rows


def saturate_reward(
    prompts: Sequence[Any] | None = None,
    completions: Sequence[Any] | None = None,
    **kwargs: Any,
) -> list[float]:
    """Score a batch of completions against their saturate rows (TRL
    ``GRPOTrainer`` reward function).

    ``prompts`` and ``completions`` are aligned lists; each completion is a
    string or a chat completion (a list of ``{"role", "content"}``
    messages). The other dataset columns come as keyword lists aligned with
    them (``id``, ``task``, ``answer``, ``metadata``, ``certificate`` are
    needed; ``level``, ``domain``, ``source`` are used when present).
    Returns one score per completion. A missing column raises
    ``ValueError``; unreadable answers score 0.
    """
    if completions is None:
        raise ValueError("saturate_reward: no completions given")
    completions = list(completions)
    rows = rows_from_columns(len(completions), prompts, kwargs)
    return score_batch(rows, completions)


__all__ = ["saturate_reward", "rows_from_columns", "REQUIRED_COLUMNS", "OPTIONAL_COLUMNS"]
