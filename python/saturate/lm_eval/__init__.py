"""lm-evaluation-harness tasks for saturate datasets.

This folder is an lm-eval ``--include_path``: one ``saturate_<config>``
task per dataset config (``saturate_eq_pc``, ``saturate_conjecture_entailment``,
...) and one group per family (``saturate_tptp``, ``saturate_pl1``,
``saturate_pl2``, ``saturate_eq``). ``TASKS_DIR`` is its path::

    lm_eval --model hf --model_args pretrained=MODEL \\
        --include_path "$(python -c 'import saturate.lm_eval as t; print(t.TASKS_DIR)')" \\
        --tasks saturate_eq --metadata '{"dataset_path": "out/eq"}'

See ``utils.py`` for how the dataset folder and split are chosen.
"""

from pathlib import Path

#: The folder to give lm-eval as ``--include_path``.
TASKS_DIR = str(Path(__file__).resolve().parent)

__all__ = ["TASKS_DIR"]
