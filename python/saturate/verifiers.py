"""verifiers adapter (verifiers 0.4, ``verifiers.v1``): saturate configs
as a taskset whose reward is the engine's scorer.

The taskset id is ``saturate-verifiers`` (verifiers imports it as the
top-level module ``saturate_verifiers``, which re-exports this one)::

    import saturate.verifiers as sv
    env = sv.load_environment(configs=["eq_pc", "conjecture_entailment"],
                              size=100, seed=1, level=2)
    # or: vf-eval saturate-verifiers --env.taskset.configs '["eq_pc"]'

Each task's prompt is the row's prompt with the dataset's system prompt,
its ``row`` the whole saturate row, and its one reward, ``correct``
(weight 1), ``saturate.score(row, reply)`` on the agent's final reply: the
engine's answer extraction and checker, partial credit where the task
gives it. Needs ``pip install verifiers`` (the extra
``saturate[verifiers]``).
"""

from __future__ import annotations

from typing import Any, Optional

import verifiers.v1 as vf

from .stream import create_dataset, score_answer

#: The id verifiers finds this taskset by.
TASKSET_ID = "saturate-verifiers"


class SaturateData(vf.TaskData):
    """One row: the prompt (from the row) and the row itself."""

    row: dict[str, Any] = {}


class SaturateTask(vf.Task[SaturateData]):
    """A saturate row; rewarded by the engine's scorer."""

    @vf.reward(weight=1.0)
    async def correct(self, trace: vf.Trace) -> float:
        """1.0 for a correct final reply, 0 for a wrong or malformed one,
        partial credit where the task gives it."""
        return score_answer(trace.last_reply, self.data.row)


class SaturateTasksetConfig(vf.TasksetConfig):
    """Which rows load (``--env.taskset.*``): ``configs`` (saturate config
    names), ``size`` rows of each, ``seed``, ``level`` (None: the family's
    default levels), ``domain`` (TPTP configs), ``answer_format``."""

    id: str = TASKSET_ID
    configs: list[str] = ["eq_pc"]
    size: int = 100
    seed: int = 0
    level: Optional[int] = 1
    domain: Optional[str] = None
    answer_format: Optional[str] = None


class SaturateTaskset(vf.Taskset[SaturateTask, SaturateTasksetConfig]):
    """The rows of the configured saturate configs, config by config,
    made as the taskset is iterated."""

    def load(self):
        c = self.config
        options: dict[str, Any] = {}
        if c.domain is not None:
            options["domain"] = c.domain
        if c.answer_format is not None:
            options["answer_format"] = c.answer_format
        for name in c.configs:
            for row in create_dataset(name, c.size, seed=c.seed, level=c.level, **options):
                system = next(
                    (m["content"] for m in row.get("messages") or [] if m["role"] == "system"),
                    None,
                )
                yield SaturateTask(
                    SaturateData(
                        id=row["id"],
                        name=row["task"],
                        prompt=row["prompt"],
                        system_prompt=system,
                        row=row,
                    ),
                    c.task,
                )


def load_environment(**kwargs: Any) -> vf.Env:
    """The verifiers environment of saturate rows: ``kwargs`` are
    ``SaturateTasksetConfig``'s fields (``configs``, ``size``, ``seed``,
    ``level``, ``domain``, ``answer_format``)."""
    from verifiers.v1.utils.loaders import load_environment as load

    return load(vf.SingleAgentEnvConfig(taskset=SaturateTasksetConfig(**kwargs)))


__all__ = ["SaturateTaskset", "load_environment"]
