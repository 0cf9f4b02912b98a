"""saturate.score / score_detail: gold answers score 1 on every row of every
family, wrong answers 0, gold answers in the wrappers models write 1,
garbage 0 without an exception; bad rows and completions raise ValueError
naming the problem."""

from __future__ import annotations

import json
import math

import pytest

import saturate
from conftest import read_rows

GARBAGE = [
    "",
    "   \n\t",
    "I don't know.",
    "{",
    '{"correct": ',
    "Answer:",
    "<answer></answer>",
    "<answer>",
    "```\n```",
    "\\boxed{}",
    "null",
    "[]",
    "[999999999999999999999999]",
    "\x00\x01\x02",
    "\ud7ff\u202e\ufeff",
    "x" * 100_000,
    "(((((((((((((((((((((((((((((((((((((((((((((",
    "GAP-1:\n",
    "MASK1",
    "1 <- 1, 1\n" * 50,
]


def test_gold_answer_scores_one_on_every_row(rows):
    for family, family_rows in rows.items():
        for row in family_rows:
            got = saturate.score(row, row["answer"])
            assert got == 1.0, (family, row["id"], saturate.score_detail(row, row["answer"]))


def test_every_family_and_config_is_covered(rows):
    tasks = {r["task"] for family_rows in rows.values() for r in family_rows}
    assert {"conjecture_entailment", "premise_selection", "proof_reconstruction"} <= tasks
    assert {"pl1_proof_checking", "pl1_proof_writing", "pl1_proof_masking", "pl1_gap_filling"} <= tasks
    assert {"pl2_proof_checking", "pl2_proof_writing"} <= tasks
    assert {"eq_pc", "eq_er", "eq_gf"} <= tasks


def _flip(answer: str) -> str:
    return {"True": "False", "False": "True"}[answer]


def test_wrong_answers_score_zero(rows):
    entail = [r for r in rows["tptp"] if r["task"] == "conjecture_entailment"]
    assert entail
    for row in entail:
        assert saturate.score(row, _flip(row["answer"])) == 0.0, row["id"]
    # Proof checking: the opposite verdict is wrong.
    for row in rows["pl"] + rows["eq"]:
        if row["task"] in ("pl1_proof_checking", "eq_pc"):
            gold = row["answer"]
            wrong = gold.replace('"correct":true', '"correct":false', 1)
            if wrong == gold:
                wrong = '{"correct":true}'
            assert saturate.score(row, wrong) == 0.0, (row["id"], wrong)
    # Another problem's gold answer is not credited in full where answers
    # are specific to their problem (not a verdict or a label).
    specific = {"proof_reconstruction", "pl1_proof_writing", "pl1_proof_masking",
                "pl1_gap_filling", "eq_er", "eq_gf"}
    compared = 0
    for family_rows in rows.values():
        for a, b in zip(family_rows, family_rows[1:]):
            if a["task"] == b["task"] and a["task"] in specific and a["answer"] != b["answer"]:
                assert saturate.score(a, b["answer"]) < 1.0, (a["id"], b["id"])
                compared += 1
    assert compared >= 10


def test_badly_formatted_right_answers_score_one(rows):
    entail = [r for r in rows["tptp"] if r["task"] == "conjecture_entailment"]
    for row in entail:
        gold = row["answer"]
        for reply in [
            f"**{gold}**",
            f"<answer>{gold}</answer>",
            f"Let me think step by step. The premises give the goal by resolution...\n\nAnswer: {gold}",
            f"The answer is {gold}.",
            f"\\boxed{{{gold}}}",
            f"```\n{gold}\n```",
        ]:
            assert saturate.score(row, reply) == 1.0, (row["id"], reply)
    for family_rows in rows.values():
        for row in family_rows:
            gold = row["answer"]
            for reply in [f"<answer>\n{gold}\n</answer>", f"Reasoning first.\n\n<answer>{gold}</answer>"]:
                assert saturate.score(row, reply) == 1.0, (row["id"], reply)


def test_garbage_scores_zero_and_never_raises(all_rows):
    for row in all_rows:
        for reply in GARBAGE:
            got = saturate.score(row, reply)
            assert got == 0.0, (row["id"], reply[:40], saturate.score_detail(row, reply))


def test_score_detail_reports_the_scorers_account(rows):
    row = rows["pl"][0]
    good = saturate.score_detail(row, row["answer"])
    assert set(good) == {"score", "well_formed", "verdict", "detail", "metrics", "steps"}
    assert good["score"] == 1.0 and good["well_formed"] is True and good["verdict"] == "ok"
    assert isinstance(good["detail"], str) and isinstance(good["metrics"], dict)
    bad = saturate.score_detail(row, "no answer here {")
    assert bad["score"] == 0.0 and bad["well_formed"] is False and bad["detail"]
    assert bad["verdict"] == "malformed"
    checking = next(r for r in rows["pl"] if r["task"] == "pl1_proof_checking")
    metrics = saturate.score_detail(checking, checking["answer"])["metrics"]
    assert metrics.get("lenient") == 1.0 and metrics.get("strict") == 1.0, metrics
    for v in metrics.values():
        assert isinstance(v, float) and math.isfinite(v)


def test_chat_completions_score_their_last_assistant_message(rows):
    row = rows["eq"][0]
    gold = row["answer"]
    assert saturate.score(row, [{"role": "assistant", "content": gold}]) == 1.0
    chat = [
        {"role": "user", "content": row["prompt"]},
        {"role": "assistant", "content": "first try: nothing"},
        {"role": "user", "content": "again"},
        {"role": "assistant", "content": gold},
    ]
    assert saturate.score(row, chat) == 1.0
    assert saturate.score(row, chat[:2]) == 0.0
    parts = [{"role": "assistant", "content": [{"type": "text", "text": gold}]}]
    assert saturate.score(row, parts) == 1.0
    assert saturate.score(row, {"role": "assistant", "content": gold}) == 1.0
    assert saturate.score(row, [{"role": "assistant", "content": None}]) == 0.0


def test_level_may_be_an_integer_a_string_or_none(rows):
    for row in rows["tptp"][:3] + rows["eq"][:3]:
        as_int = dict(row, level=int(row["level"]))
        as_none = dict(row, level=None)
        for r in (row, as_int, as_none):
            assert saturate.score(r, r["answer"]) == 1.0
    with pytest.raises(ValueError, match="level"):
        saturate.score(dict(row, level=1.5), row["answer"])
    with pytest.raises(ValueError, match="level"):
        saturate.score(dict(row, level=True), row["answer"])


def test_extra_columns_are_ignored(rows):
    row = dict(rows["pl"][0], extra=[1, 2, 3], messages=[{"role": "user"}])
    assert saturate.score(row, row["answer"]) == 1.0


@pytest.mark.parametrize("key", ["id", "task", "prompt", "answer", "metadata", "certificate"])
def test_a_missing_column_is_a_value_error_naming_it(rows, key):
    row = dict(rows["eq"][0])
    del row[key]
    with pytest.raises(ValueError, match=f"no '{key}' column|no \"{key}\" column"):
        saturate.score(row, "True")


def test_bad_rows_and_completions_are_value_errors(rows):
    row = rows["eq"][0]
    with pytest.raises(ValueError, match="not a task"):
        saturate.score(dict(row, task="no_such_task"), "True")
    with pytest.raises(ValueError, match="metadata"):
        saturate.score(dict(row, metadata={"a": 1}), "True")
    with pytest.raises(ValueError, match="mapping"):
        saturate.score(["not", "a", "row"], "True")
    with pytest.raises(ValueError, match="completion must be"):
        saturate.score(row, 42)
    with pytest.raises(ValueError, match="no assistant message"):
        saturate.score(row, [{"role": "user", "content": "hi"}])
    with pytest.raises(ValueError, match="no assistant message"):
        saturate.score(row, [])


def test_derivation_chains_get_a_verdict_per_step(datasets_dir):
    cfg = datasets_dir / "derivation.toml"
    cfg.write_text('[tasks.tptp]\nfamilies = ["derivation"]\n')
    out = saturate.generate(
        "tptp", str(datasets_dir / "derivation"), domain="SET", count=2, levels=[1, 2], seed=3,
        config=str(cfg),
    )["dataset"]
    rows = read_rows(out)
    assert {r["task"] for r in rows} == {"stepwise_derivation"}
    for row in rows:
        gold = saturate.score_detail(row, row["answer"])
        assert gold["verdict"] == "ok" and gold["score"] == 1.0, gold
        assert gold["steps"] and all(s["verdict"] == "ok" for s in gold["steps"]), gold
        theorem = json.loads(row["metadata"])["theorem"]
        cheat = saturate.score_detail(row, "S1: %s by conclusion" % theorem)
        assert cheat["verdict"] == "cheating" and cheat["score"] == 0.0, cheat
        assert cheat["steps"][0]["step"] == "S1" and cheat["steps"][0]["verdict"] == "cheating"
