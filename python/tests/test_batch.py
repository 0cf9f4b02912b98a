"""saturate.score_batch equals the one-by-one scores; the TRL reward,
called exactly as GRPOTrainer calls it (prompts and completions, the other
columns as keyword lists, trainer extras), returns the expected scores for
string and chat completions."""

from __future__ import annotations

import json

import pytest

import saturate
from saturate.rewards import saturate_reward


def _replies(rows):
    """Per row: the gold answer, a badly formatted gold answer, garbage and
    another row's answer, cycling (a mix of right, wrong and unreadable)."""
    out = []
    for i, row in enumerate(rows):
        kind = i % 4
        if kind == 0:
            out.append(row["answer"])
        elif kind == 1:
            out.append(f"Some reasoning.\n<answer>{row['answer']}</answer>")
        elif kind == 2:
            out.append("garbage {")
        else:
            out.append(rows[(i + 1) % len(rows)]["answer"])
    return out


def test_score_batch_equals_the_sequential_scores(all_rows):
    replies = _replies(all_rows)
    batch = saturate.score_batch(all_rows, replies)
    assert batch == [saturate.score(r, a) for r, a in zip(all_rows, replies)]
    assert batch.count(1.0) >= len(all_rows) // 2
    assert 0.0 in batch
    # Chat completions and a generator of rows give the same scores.
    chats = [[{"role": "assistant", "content": a}] for a in replies]
    assert saturate.score_batch(iter(all_rows), chats) == batch


def test_score_batch_checks_its_input_before_scoring(all_rows):
    assert saturate.score_batch([], []) == []
    with pytest.raises(ValueError, match="2 rows but 1 completions"):
        saturate.score_batch(all_rows[:2], ["x"])
    bad = [all_rows[0], {k: v for k, v in all_rows[1].items() if k != "answer"}]
    with pytest.raises(ValueError, match=r"item 1: .*\"answer\""):
        saturate.score_batch(bad, ["x", "y"])


def _columns(rows):
    """The keyword lists GRPOTrainer passes: every dataset column but prompt."""
    return {k: [r[k] for r in rows] for k in rows[0] if k != "prompt"}


class _TrainerState:
    global_step = 7


def test_reward_called_as_grpo_trainer_calls_it(rows):
    batch = rows["tptp"][:4] + rows["eq"][:4] + rows["pl"][:4]
    # GRPO repeats every prompt num_generations times; the columns follow.
    batch = [r for r in batch for _ in range(2)]
    gold = [r["answer"] for r in batch]
    wrong = ["definitely not it" for _ in batch]
    formatted = [f"Let me reason.\n\n<answer>{a}</answer>" for a in gold]
    prompts = [r["prompt"] for r in batch]
    extras = {"completion_ids": [[1, 2, 3]] * len(batch), "trainer_state": _TrainerState()}
    for completions, expected in [(gold, 1.0), (wrong, 0.0), (formatted, 1.0)]:
        got = saturate_reward(prompts=prompts, completions=completions, **_columns(batch), **extras)
        assert got == [expected] * len(batch), (completions[0][:60], got)
    # Conversational dataset: prompts and completions are chat messages.
    chat_prompts = [[{"role": "user", "content": p}] for p in prompts]
    mixed = [gold[i] if i % 2 else wrong[i] for i in range(len(batch))]
    chat_completions = [[{"role": "assistant", "content": c}] for c in mixed]
    got = saturate_reward(prompts=chat_prompts, completions=chat_completions, **_columns(batch), **extras)
    assert got == [1.0 if i % 2 else 0.0 for i in range(len(batch))]
    # Integer levels (the coming dataset format) score the same.
    columns = _columns(batch)
    columns["level"] = [int(x) for x in columns["level"]]
    assert saturate_reward(prompts=prompts, completions=gold, **columns) == [1.0] * len(batch)


def test_reward_names_a_missing_column(rows):
    batch = rows["eq"][:2]
    columns = _columns(batch)
    del columns["metadata"]
    with pytest.raises(ValueError, match="no 'metadata' column"):
        saturate_reward(prompts=[r["prompt"] for r in batch], completions=["x", "y"], **columns)
    columns = _columns(batch)
    columns["id"] = columns["id"][:1]
    with pytest.raises(ValueError, match="'id' has 1 values for 2 completions"):
        saturate_reward(prompts=None, completions=["x", "y"], **columns)


def _wrong_but_readable(row):
    """A wrong answer the scorer must work on: for selection every pool
    clause (sufficient, not minimal), for reconstruction each derived
    clause's first step re-parented on the first two clauses."""
    if row["task"] == "premise_selection":
        n = len(json.loads(row["metadata"])["pool"])
        return "[" + ", ".join(str(i) for i in range(1, n + 1)) + "]"
    lines = [l for l in row["answer"].splitlines() if "<-" in l]
    child = lines[0].split("<-")[0].strip()
    return "\n".join([f"{child} <- 1, 2"] + lines[1:])


def test_values_only_scoring_gives_the_detailed_scores_value(rows):
    """score and score_batch skip the prover work only sub-metrics need
    (selection's sufficiency, reconstruction's later steps); the value is
    score_detail's."""
    picked = [r for r in rows["tptp"] if r["task"] in ("premise_selection", "proof_reconstruction")]
    assert {r["task"] for r in picked} == {"premise_selection", "proof_reconstruction"}
    replies = [_wrong_but_readable(r) for r in picked]
    detailed = [saturate.score_detail(r, a) for r, a in zip(picked, replies)]
    assert [d["score"] for d in detailed] == [saturate.score(r, a) for r, a in zip(picked, replies)]
    assert [d["score"] for d in detailed] == saturate.score_batch(picked, replies)
    assert all(d["verdict"] != "ok" for d in detailed), detailed
    # The whole pool is sufficient: the detailed account says so.
    pools = [d for r, d in zip(picked, detailed) if r["task"] == "premise_selection"]
    assert all(d["metrics"].get("sufficient") == 1.0 for d in pools), pools
