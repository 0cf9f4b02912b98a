"""The framework adapters, each with the real package (skipped cleanly
when it is not installed): reasoning-gym's registry, a verifiers v1
environment, and TRL's reward function on create_dataset rows."""

from __future__ import annotations

import asyncio

import pytest

import saturate


def test_reasoning_gym_registration():
    reasoning_gym = pytest.importorskip("reasoning_gym")
    import saturate.reasoning_gym as srg

    assert "saturate_eq_pc" in srg.REGISTERED
    assert "saturate_conjecture_entailment" in srg.REGISTERED
    ds = reasoning_gym.create_dataset("saturate_eq_pc", size=5, seed=1, level=2)
    assert len(ds) == 5
    rows = list(saturate.create_dataset("eq_pc", 5, seed=1, level=2))
    for i, entry in enumerate(ds):
        assert entry["question"] == rows[i]["prompt"]
        assert entry["answer"] == rows[i]["answer"]
        assert entry["metadata"]["source_dataset"] == "saturate_eq_pc"
        assert ds.score_answer(rows[i]["completion"], entry) == 1.0
        assert ds.score_answer(None, entry) == 0.0
        assert ds.score_answer("True", entry) < 1.0 or entry["answer"] == "True"
    # Registering again is harmless.
    assert srg.register() == srg.REGISTERED
    # Through reasoning-gym's own score function lookup.
    score = reasoning_gym.get_score_answer_fn("saturate_eq_pc")
    assert score(rows[0]["completion"], ds[0]) == 1.0


def test_verifiers_environment():
    pytest.importorskip("verifiers.v1")
    import verifiers.v1 as vf

    import saturate.verifiers as sv

    env = sv.load_environment(configs=["eq_pc", "equivalence_pl"], size=3, seed=2, level=1)
    tasks = list(env.taskset)
    assert [t.data.row["task"] for t in tasks] == ["eq_pc"] * 3 + ["equivalence_pl"] * 3
    rows = list(saturate.create_dataset("eq_pc", 3, seed=2, level=1))
    assert [t.data.id for t in tasks[:3]] == [r["id"] for r in rows]
    assert tasks[0].data.prompt == rows[0]["prompt"]
    assert tasks[0].data.system_prompt

    def reward(task, reply: str) -> float:
        trace = vf.Trace.model_construct(root_reply=reply)
        return asyncio.run(task.correct(trace))

    for t in tasks:
        assert reward(t, t.data.row["completion"]) == 1.0
        assert reward(t, "") == 0.0
    # verifiers finds the taskset by its id, as `vf-eval saturate-verifiers` does.
    from verifiers.v1.utils.loaders import taskset_class

    assert taskset_class(sv.TASKSET_ID) is sv.SaturateTaskset


def test_trl_reward_reads_streamed_rows():
    from saturate.rewards import saturate_reward

    rows = list(saturate.create_dataset("equivalence_pl", 4, seed=3, level=1))
    columns = {k: [r[k] for r in rows] for k in rows[0] if k not in ("prompt", "completion")}
    prompts = [r["prompt"] for r in rows]
    good = saturate_reward(prompts, [r["completion"] for r in rows], **columns)
    bad = saturate_reward(prompts, ["" for _ in rows], **columns)
    assert good == [1.0] * 4 and bad == [0.0] * 4
    # As a Hugging Face dataset, the way GRPOTrainer holds it.
    datasets = pytest.importorskip("datasets")
    ds = datasets.Dataset.from_list(rows)
    cols = {k: ds[k] for k in ds.column_names if k not in ("prompt", "completion")}
    assert saturate_reward(ds["prompt"], ds["completion"], **cols) == [1.0] * 4
