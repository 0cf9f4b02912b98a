#!/usr/bin/env python3
"""Hugging Face load check for a saturate dataset directory.

Loads every config listed in the directory's manifest.json with
`datasets.load_dataset(DIR, CONFIG)`, prints the rows per split, and checks
them against the manifest (counts, columns, id uniqueness, JSON columns
parse). Exits non-zero, loudly, on any error. Loads into a fresh, temporary
cache directory: the shared Hugging Face cache can serve a stale build of an
earlier dataset for the same config (it did: 6 rows read back for a shard of
7), and a check must read what is on disk now.

Usage: python3 scripts/hf_load_check.py out/pl
Needs: pip install datasets  (e.g. in a venv)
"""

import json
import sys
import tempfile
from pathlib import Path

COLUMNS = ["id", "task", "domain", "source", "level", "prompt", "answer",
           "metadata", "certificate"]


def fail(msg: str) -> None:
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def main() -> None:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    root = Path(sys.argv[1])
    manifest_path = root / "manifest.json"
    if not manifest_path.is_file():
        fail(f"{manifest_path}: missing")
    manifest = json.loads(manifest_path.read_text())
    try:
        import datasets
    except ImportError:
        fail("the `datasets` package is not installed (pip install datasets)")
    print(f"datasets {datasets.__version__}; {root}: "
          f"{manifest['total_rows']} rows in {len(manifest['configs'])} configs")
    with tempfile.TemporaryDirectory(prefix="hf-load-check-") as cache:
        check(datasets, root, manifest, cache)


def check(datasets, root: Path, manifest: dict, cache: str) -> None:
    total = 0
    for config, counts in manifest["configs"].items():
        try:
            ds = datasets.load_dataset(str(root), config, cache_dir=cache)
        except Exception as e:  # noqa: BLE001 - report whatever went wrong
            fail(f"{config}: load_dataset raised {type(e).__name__}: {e}")
        expected = {s: c["rows"] for s, c in counts["splits"].items()}
        got = {s: ds[s].num_rows for s in ds}
        if got != expected:
            fail(f"{config}: rows per split {got} != manifest {expected}")
        ids = set()
        for split in ds:
            if ds[split].column_names != COLUMNS:
                fail(f"{config}/{split}: columns {ds[split].column_names}")
            for row in ds[split]:
                if row["id"] in ids:
                    fail(f"{config}: duplicate id {row['id']}")
                ids.add(row["id"])
                for col in ("metadata", "certificate"):
                    try:
                        json.loads(row[col])
                    except (TypeError, json.JSONDecodeError) as e:
                        fail(f"{config}: row {row['id']}: {col} is not JSON: {e}")
        n = sum(got.values())
        total += n
        splits = ", ".join(f"{s} {got[s]}" for s in ("train", "validation", "test")
                           if s in got)
        print(f"  {config}: {n} rows ({splits})")
    if total != manifest["total_rows"]:
        fail(f"total {total} != manifest {manifest['total_rows']}")
    print(f"OK: {total} rows loaded")


if __name__ == "__main__":
    main()
