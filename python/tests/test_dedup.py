"""saturate.dedup: rows shared between datasets up to variable renaming
and clause order, on folders (the engine's report) and on row lists."""

from __future__ import annotations

import pytest

import saturate
from saturate.dedup import problem_key


def test_key_ignores_variable_names_and_clause_order():
    a = {"task": "t", "prompt": "Premises:\n- p(X0,X1) | q(X1)\n- r(X0)\nConclusion:\np(a)"}
    b = {"task": "t", "prompt": "Premises:\n- r(Y)\n- p(A,B) | q(B)\nConclusion:\np(a)"}
    c = {"task": "t", "prompt": "Premises:\n- r(Y)\n- p(A,B) | q(A)\nConclusion:\np(a)"}
    assert problem_key(a) == problem_key(b) != problem_key(c)


def test_row_lists_two_seeds_and_a_renamed_copy():
    s1 = list(saturate.create_dataset("eq_pc", 20, seed=1, level=1))
    s2 = list(saturate.create_dataset("eq_pc", 20, seed=2, level=1))
    report = saturate.dedup(s2, s1)
    assert report["total"]["rows"] == 20
    assert report["total"]["in_reference"] <= 20
    same = saturate.dedup(s1, s1)
    assert same["total"]["in_reference"] == 20
    # A copy with its listed lines reversed is still found.
    def shuffled(r):
        lines = r["prompt"].split("\n")
        items = [i for i, l in enumerate(lines) if l.startswith("E") and ": " in l[:5]]
        for i, j in zip(items, reversed(items)):
            if i < j:
                lines[i], lines[j] = lines[j], lines[i]
        return dict(r, prompt="\n".join(lines), id=r["id"] + "-copy")
    copies = [shuffled(r) for r in s1]
    assert saturate.dedup(copies, s1)["total"]["in_reference"] == 20


def test_dataset_folders(tmp_path):
    a = saturate.generate("eq", str(tmp_path / "a"), count=10, seed=1, levels=[1])["dataset"]
    b = saturate.generate("eq", str(tmp_path / "b"), count=10, seed=2, levels=[1])["dataset"]
    alone = saturate.dedup(a)
    assert alone["total"]["rows"] == 30
    assert alone["total"]["in_reference"] is None
    assert set(alone["configs"]) == {"eq_pc", "eq_er", "eq_gf"}
    assert alone["total"]["within"] == 0  # the loop deduplicates its cells
    itself = saturate.dedup(a, a)
    assert itself["total"]["in_reference"] == 30
    across = saturate.dedup(b, a)
    assert across["total"]["rows"] == 30
    assert 0 <= across["total"]["in_reference"] < 30
    with pytest.raises(ValueError):
        saturate.dedup(str(tmp_path / "missing"))
