"""The lm-evaluation-harness tasks of saturate/lm_eval: lm-eval's CLI lists
them from --include_path, and an evaluation with a model that answers
every prompt with the row's gold answer scores 1 (and one that answers
nonsense scores 0). Skipped when lm_eval is not installed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from saturate.lm_eval import TASKS_DIR

lm_eval = pytest.importorskip(
    "lm_eval", reason="lm-evaluation-harness is not installed (pip install lm_eval)"
)
from lm_eval.api.model import LM  # noqa: E402
from lm_eval.api.registry import register_model  # noqa: E402
from lm_eval.tasks import TaskManager  # noqa: E402


@register_model("saturate-test-oracle")
class OracleLM(LM):
    """Answers every generation request with the row's gold answer (or,
    with ``wrong=True``, with a reply no task accepts)."""

    def __init__(self, wrong: bool = False, **kwargs):
        super().__init__()
        self.wrong = wrong
        self.prompts: list[str] = []

    def generate_until(self, requests, disable_tqdm: bool = False):
        out = []
        for request in requests:
            self.prompts.append(request.args[0])
            out.append("no idea {" if self.wrong else f"<answer>{request.doc['answer']}</answer>")
        return out

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("the saturate tasks only generate")

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("the saturate tasks only generate")


def test_the_cli_lists_the_tasks():
    exe = shutil.which("lm_eval") or shutil.which("lm-eval")
    cmd = [exe] if exe else [sys.executable, "-m", "lm_eval"]
    listed = subprocess.run(
        cmd + ["ls", "tasks", "--include_path", TASKS_DIR],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert listed.returncode == 0, listed.stderr[-2000:]
    for task in ["saturate_eq_pc", "saturate_conjecture_entailment", "saturate_pl1_proof_writing", "saturate_eq"]:
        assert task in listed.stdout, task


def _evaluate(dataset: str, tasks: list[str], model: OracleLM, split: str = "train"):
    manager = TaskManager(include_path=TASKS_DIR, metadata={"dataset_path": dataset, "split": split})
    return lm_eval.simple_evaluate(model=model, tasks=tasks, task_manager=manager, limit=20)


def test_a_gold_answering_model_scores_one(eq_dataset, tptp_dataset):
    model = OracleLM()
    results = _evaluate(eq_dataset, ["saturate_eq"], model)["results"]
    for task in ["saturate_eq_pc", "saturate_eq_er", "saturate_eq_gf"]:
        assert results[task]["score,none"] == 1.0, results[task]
        assert results[task]["well_formed,none"] == 1.0, results[task]
    assert model.prompts and all("E1" in p or "equation" in p.lower() for p in model.prompts)
    results = _evaluate(tptp_dataset, ["saturate_conjecture_entailment"], OracleLM())["results"]
    assert results["saturate_conjecture_entailment"]["score,none"] == 1.0


def test_a_nonsense_answering_model_scores_zero(eq_dataset):
    results = _evaluate(eq_dataset, ["saturate_eq_pc"], OracleLM(wrong=True))["results"]
    assert results["saturate_eq_pc"]["score,none"] == 0.0


def test_a_missing_dataset_folder_is_named(monkeypatch):
    monkeypatch.delenv("SATURATE_DATASET", raising=False)
    manager = TaskManager(include_path=TASKS_DIR)
    with pytest.raises(ValueError, match="SATURATE_DATASET"):
        lm_eval.simple_evaluate(model=OracleLM(), tasks=["saturate_eq_pc"], task_manager=manager, limit=1)


def test_the_environment_variable_names_the_dataset(eq_dataset, monkeypatch):
    monkeypatch.setenv("SATURATE_DATASET", eq_dataset)
    monkeypatch.setenv("SATURATE_SPLIT", "train")
    manager = TaskManager(include_path=TASKS_DIR)
    results = lm_eval.simple_evaluate(model=OracleLM(), tasks=["saturate_eq_gf"], task_manager=manager, limit=5)
    assert results["results"]["saturate_eq_gf"]["score,none"] == 1.0
    assert os.path.isdir(eq_dataset)
