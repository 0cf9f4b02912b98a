#!/usr/bin/env python3
"""Hugging Face load check for saturate dataset directories.

For each directory (in one process, with one shared cache, so that a cache
that confused two datasets would show here), loads the default `all` config
with `datasets.load_dataset(DIR)` and every config listed in manifest.json
with `datasets.load_dataset(DIR, CONFIG)`, and checks what comes back
against the shard files read directly (pyarrow for Parquet, json for JSON
Lines): the same ids in the same order per split, the same prompts and
answers, the typed columns (`level` an integer, `messages` a list of
{role, content}). It also parses the card with `huggingface_hub.DatasetCard`
and checks the Hub fields: license, language, task_categories,
size_categories, pretty_name, the default `all` config and `dataset_info`.
Exits non-zero, loudly, on any error.

Usage: python3 scripts/hf_load_check.py [--cache DIR] DATASET_DIR [...]
  --cache DIR  use (and keep) this datasets cache instead of a fresh one, so
               that a later run in another process can reuse it
Needs: pip install datasets huggingface_hub pyarrow
"""

import json
import sys
import tempfile
from pathlib import Path

COLUMNS = ["id", "task", "domain", "source", "level", "prompt", "answer",
           "completion", "messages", "trace", "metadata", "certificate"]
SPLITS = ("train", "validation", "test")


def fail(msg: str) -> None:
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def shard_rows(root: Path, manifest: dict, config: str, split: str) -> list:
    """The rows of one (config, split) straight from its shard files."""
    rows = []
    counts = manifest["configs"][config]["splits"].get(split)
    if not counts:
        return rows
    for shard in counts["shards"]:
        path = root / shard["file"]
        if path.suffix == ".jsonl":
            rows.extend(json.loads(line) for line in path.read_text().splitlines())
        else:
            import pyarrow.parquet as pq
            rows.extend(pq.read_table(path).to_pylist())
    return rows


def check_card(root: Path) -> None:
    try:
        from huggingface_hub import DatasetCard
    except ImportError:
        print("  card: huggingface_hub not installed, card fields not checked")
        return
    card = DatasetCard.load(root / "README.md")
    data = card.data.to_dict()
    for key in ("license", "language", "task_categories", "size_categories",
                "pretty_name", "configs", "dataset_info"):
        if not data.get(key):
            fail(f"{root}/README.md: card has no `{key}`")
    defaults = [c["config_name"] for c in data["configs"] if c.get("default")]
    if defaults != ["all"]:
        fail(f"{root}/README.md: default config {defaults}, expected ['all']")
    names = {c["config_name"] for c in data["configs"]}
    infos = {i["config_name"] for i in data["dataset_info"]}
    if names != infos:
        fail(f"{root}/README.md: configs {sorted(names)} but dataset_info {sorted(infos)}")
    print(f"  card: license {data['license']}, {data['size_categories']}, "
          f"{len(names)} configs with dataset_info")


def check_loaded(datasets, root: Path, manifest: dict, config, cache: str) -> int:
    name = config or "all"
    try:
        if config is None:
            ds = datasets.load_dataset(str(root), cache_dir=cache)
        else:
            ds = datasets.load_dataset(str(root), config, cache_dir=cache)
    except Exception as e:  # noqa: BLE001 - report whatever went wrong
        fail(f"{root} {name}: load_dataset raised {type(e).__name__}: {e}")
    configs = [config] if config else sorted(manifest["configs"])
    n = 0
    for split in SPLITS:
        expected = [r for c in configs for r in shard_rows(root, manifest, c, split)]
        got = ds[split] if split in ds else []
        if len(got) != len(expected):
            fail(f"{root} {name}/{split}: {len(got)} rows loaded, the files hold {len(expected)}")
        if not expected:
            continue
        if got.column_names != COLUMNS:
            fail(f"{root} {name}/{split}: columns {got.column_names}")
        feats = got.features
        if feats["level"].dtype != "int64":
            fail(f"{root} {name}/{split}: level is {feats['level']}, expected int64")
        loaded = sorted((r["id"], r["prompt"], r["answer"], r["level"]) for r in got)
        files = sorted((r["id"], r["prompt"], r["answer"], r["level"]) for r in expected)
        if loaded != files:
            fail(f"{root} {name}/{split}: the loaded rows are not the rows on disk "
                 f"(a stale cache?)")
        first = got[0]
        roles = [m["role"] for m in first["messages"]]
        if roles != ["system", "user", "assistant"] or \
                first["messages"][1]["content"] != first["prompt"] or \
                first["messages"][2]["content"] != first["completion"]:
            fail(f"{root} {name}/{split}: messages are not [system, prompt, completion]")
        for col in ("metadata", "certificate"):
            try:
                json.loads(first[col])
            except (TypeError, json.JSONDecodeError) as e:
                fail(f"{root} {name}: row {first['id']}: {col} is not JSON: {e}")
        n += len(got)
    splits = ", ".join(f"{s} {len(ds[s])}" for s in SPLITS if s in ds)
    print(f"  {name}: {n} rows ({splits})")
    return n


def main() -> None:
    args = sys.argv[1:]
    cache_arg = None
    if len(args) >= 2 and args[0] == "--cache":
        cache_arg, args = args[1], args[2:]
    if not args:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        import datasets
    except ImportError:
        fail("the `datasets` package is not installed (pip install datasets)")
    with tempfile.TemporaryDirectory(prefix="hf-load-check-") as fresh:
        cache = cache_arg or fresh
        for d in args:
            root = Path(d)
            manifest_path = root / "manifest.json"
            if not manifest_path.is_file():
                fail(f"{manifest_path}: missing")
            manifest = json.loads(manifest_path.read_text())
            print(f"datasets {datasets.__version__}; {root}: "
                  f"{manifest['total_rows']} rows in {len(manifest['configs'])} configs")
            check_card(root)
            total = check_loaded(datasets, root, manifest, None, cache)
            if total != manifest["total_rows"]:
                fail(f"{root}: `all` has {total} rows, the manifest {manifest['total_rows']}")
            per = sum(check_loaded(datasets, root, manifest, c, cache)
                      for c in manifest["configs"])
            if per != manifest["total_rows"]:
                fail(f"{root}: configs hold {per} rows, the manifest {manifest['total_rows']}")
            print(f"OK: {total} rows loaded")


if __name__ == "__main__":
    main()
