#!/usr/bin/env python3
"""Loads a saturate dataset with Hugging Face `datasets`, every config.

Usage: python3 scripts/verify_hf.py [--cache DIR] DATASET_DIR [DATASET_DIR ...]

For each directory (the one holding manifest.json), in one process with one
cache, it runs `datasets.load_dataset(DIR)` (the default `all` config) and
`datasets.load_dataset(DIR, CONFIG)` for every config of the manifest, and
checks the rows against the shard files and the card's Hub fields (see
scripts/hf_load_check.py). When `datasets` or `pyarrow` is missing it
creates a virtual environment under target/hf-venv, installs both there
with pip, and re-runs itself inside it. Exits non-zero on any failure.
"""

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE.parent / "target" / "hf-venv"


def have_deps() -> bool:
    try:
        import datasets  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    if not have_deps():
        if os.environ.get("SATURATE_HF_VENV") == "1":
            print("FAIL: datasets/pyarrow still missing inside the venv", file=sys.stderr)
            sys.exit(1)
        py = VENV / "bin" / "python"
        if not py.exists():
            print(f"creating {VENV} and installing datasets, pyarrow", file=sys.stderr)
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", "datasets", "huggingface_hub", "pyarrow"],
                       check=True)
        env = dict(os.environ, SATURATE_HF_VENV="1")
        sys.exit(subprocess.run([str(py), __file__, *sys.argv[1:]], env=env).returncode)
    sys.path.insert(0, str(HERE))
    import hf_load_check

    # One process, one cache for every directory: a cache that confused two
    # datasets would fail the check.
    hf_load_check.main()


if __name__ == "__main__":
    main()
