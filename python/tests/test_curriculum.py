"""saturate.Curriculum: a GRPO-style loop with a scripted policy (no
model) drives each config's difficulty up while the policy succeeds and
down when it fails; the loop is deterministic and resumes exactly from its
serialised state."""

from __future__ import annotations

import json
import random

import pytest

import saturate
from saturate.curriculum import Curriculum

CONFIGS = ["eq_pc", "equivalence_pl"]


def policy_reply(row: dict, skill: float, rng: random.Random) -> str:
    """A scripted policy: the gold completion with a probability that falls
    with the row's level above the policy's skill, else a wrong reply."""
    p = 0.95 if row["level"] <= skill else 0.05
    return row["completion"] if rng.random() < p else "I am not sure."


def run(curriculum: Curriculum, steps: int, skill, rng: random.Random, batch: int = 4):
    """``steps`` GRPO-style steps: draw a batch, score the scripted
    policy's replies with the engine's scorer, update the curriculum."""
    trace = []
    for step in range(steps):
        rows = curriculum.sample(batch)
        replies = [policy_reply(r, skill(step), rng) for r in rows]
        rewards = saturate.score_batch(rows, replies)
        for r, reward in zip(rows, rewards):
            curriculum.update(r["task"], reward)
        trace.append({c: curriculum.difficulty(c) for c in CONFIGS})
    return trace


def test_difficulty_follows_the_policy_up_and_down():
    c = Curriculum(CONFIGS, seed=7, target=0.5, step=0.25, window=8, chunk=16)
    rng = random.Random(1)
    assert all(c.difficulty(n) == 1.0 for n in CONFIGS)
    # A policy that solves levels up to 3: the difficulty climbs to where
    # the success rate is near the target (between 3 and 4).
    up = run(c, 150, lambda s: 3, rng)
    peak = {n: max(t[n] for t in up) for n in CONFIGS}
    for n in CONFIGS:
        assert peak[n] >= 3.0, (n, peak)
    # The policy forgets everything above level 1: the difficulty falls.
    down = run(c, 150, lambda s: 1, rng)
    for n in CONFIGS:
        assert down[-1][n] <= 2.0, (n, down[-1])
        assert down[-1][n] < peak[n]
    # Difficulty rises with the level the rows come from.
    levels = [r["level"] for r in c.sample(40, config="eq_pc")]
    d = c.difficulty("eq_pc")
    assert min(levels) >= int(d) and max(levels) <= int(d) + 1


def test_deterministic_and_resumable():
    def fresh():
        return Curriculum(CONFIGS, seed=3, window=4, chunk=8)

    a, b = fresh(), fresh()
    ta = run(a, 30, lambda s: 2, random.Random(5))
    tb = run(b, 30, lambda s: 2, random.Random(5))
    assert ta == tb
    assert [r["id"] for r in a.sample(6)] == [r["id"] for r in b.sample(6)]

    # Stop half way, serialise through JSON, resume: the same rows and
    # difficulties as the run that never stopped.
    whole, half = fresh(), fresh()
    rng1, rng2 = random.Random(9), random.Random(9)
    run(whole, 20, lambda s: 2, rng1)
    run(half, 10, lambda s: 2, rng2)
    state = json.loads(json.dumps(half.state_dict()))
    resumed = Curriculum.from_state(state)
    run(resumed, 10, lambda s: 2, rng2)
    assert resumed.state_dict() == whole.state_dict()
    assert [r["id"] for r in resumed.sample(5)] == [r["id"] for r in whole.sample(5)]
    assert Curriculum.from_dict(whole.to_dict()).state_dict() == whole.state_dict()


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown config"):
        Curriculum(["nope"])
    with pytest.raises(ValueError, match="target"):
        Curriculum(CONFIGS, target=1.5)
    c = Curriculum(["eq_pc"])
    with pytest.raises(KeyError):
        c.update("eq_er", 1.0)
    with pytest.raises(ValueError, match="version"):
        Curriculum.from_state({"version": 99})
