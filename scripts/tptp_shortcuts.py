#!/usr/bin/env python3
"""Shortcut audit of a generated TPTP dataset (issue 16 item 2): how far do
shallow rules that ignore the logic get on each config and level?

Usage: scripts/tptp_shortcuts.py DATASET_DIR [DATASET_DIR ...] [--json]

DATASET_DIR is a generated dataset (the folder holding one sub-folder of
Parquet shards per config, e.g. out/SET/SET-tasks). Rows carry id, task,
domain, source, level, prompt, answer, metadata (JSON) and certificate
(JSON). Reported per config and level:

- conjecture_entailment: accuracy of "True when at least half of the
  premises appear verbatim among the background (context) axioms" against
  the majority class, and the mean share of background premises per label.
- premise_selection: precision, recall and F1 of "answer the pool clauses
  listed as background axioms" against the gold answer, its exact-match
  rate, and the background share among gold premises and among distractors.
- proof_reconstruction: node counts (min / median / max) and the exact-match
  rate of "the theorem is derived from the other two clauses".
"""

import glob
import json
import os
import statistics
import sys

import pyarrow.parquet as pq


def rows(dataset_dir, config):
    """All rows of one config of a dataset, as dicts, in shard order."""
    out = []
    for path in sorted(glob.glob(os.path.join(dataset_dir, config, "*.parquet"))):
        out.extend(pq.read_table(path).to_pylist())
    return out


def by_level(rs):
    levels = {}
    for r in rs:
        levels.setdefault(int(r["level"]), []).append(r)
    return sorted(levels.items())


def entailment(rs):
    out = {}
    for level, group in by_level(rs):
        hits = 0
        labels = []
        share = {"True": [], "False": []}
        for r in group:
            meta = json.loads(r["metadata"])
            bg = set(meta.get("context_axioms", []))
            prem = meta["premises"]
            inbg = sum(1 for p in prem if p in bg)
            guess = "True" if 2 * inbg >= len(prem) else "False"
            hits += guess == r["answer"]
            labels.append(r["answer"])
            share[r["answer"]].append(inbg / len(prem))
        majority = max(labels.count("True"), labels.count("False")) / len(labels)
        out[level] = {
            "rows": len(group),
            "background_rule_accuracy": hits / len(group),
            "majority_class": majority,
            "background_share_true": mean(share["True"]),
            "background_share_false": mean(share["False"]),
        }
    return out


def parse_list(answer):
    inner = answer.strip().strip("[]")
    return {int(x) for x in inner.replace(",", " ").split()}


def selection(rs):
    out = {}
    for level, group in by_level(rs):
        tp = fp = fn = exact = 0
        gold_bg = gold_n = dis_bg = dis_n = 0
        for r in group:
            meta = json.loads(r["metadata"])
            bg = set(meta.get("context_axioms", []))
            pool = meta["pool"]
            gold = parse_list(r["answer"])
            pick = {i + 1 for i, c in enumerate(pool) if c in bg}
            tp += len(pick & gold)
            fp += len(pick - gold)
            fn += len(gold - pick)
            exact += pick == gold
            for i, c in enumerate(pool):
                if i + 1 in gold:
                    gold_n += 1
                    gold_bg += c in bg
                else:
                    dis_n += 1
                    dis_bg += c in bg
        p = tp / (tp + fp) if tp + fp else 0.0
        rc = tp / (tp + fn) if tp + fn else 0.0
        out[level] = {
            "rows": len(group),
            "pick_background_precision": p,
            "pick_background_recall": rc,
            "pick_background_f1": 2 * p * rc / (p + rc) if p + rc else 0.0,
            "pick_background_exact": exact / len(group),
            "gold_background_share": gold_bg / gold_n if gold_n else 0.0,
            "distractor_background_share": dis_bg / dis_n if dis_n else 0.0,
            "gold_premises": gold_n,
            "distractors": dis_n,
        }
    return out


def reconstruction(rs):
    out = {}
    for level, group in by_level(rs):
        nodes = []
        exact = 0
        for r in group:
            meta = json.loads(r["metadata"])
            n = len(meta["clauses"])
            nodes.append(n)
            t = meta["theorem_index"]
            others = sorted(i for i in range(1, n + 1) if i != t)
            guess = f"{t} <- {others[0]}, {others[1]}\n" if n == 3 else None
            exact += guess == r["answer"]
        out[level] = {
            "rows": len(group),
            "nodes_min": min(nodes),
            "nodes_median": statistics.median(nodes),
            "nodes_max": max(nodes),
            "theorem_from_other_two_exact": exact / len(group),
        }
    return out


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


AUDITS = {
    "conjecture_entailment": entailment,
    "premise_selection": selection,
    "proof_reconstruction": reconstruction,
}


def main(argv):
    as_json = "--json" in argv
    dirs = [a for a in argv if a != "--json"]
    if not dirs:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    report = {}
    for d in dirs:
        for config, audit in AUDITS.items():
            rs = rows(d, config)
            if rs:
                report.setdefault(d, {})[config] = audit(rs)
    if as_json:
        print(json.dumps(report, indent=1, sort_keys=True))
        return 0
    for d, configs in report.items():
        print(f"== {d}")
        for config, levels in configs.items():
            print(f"  {config}")
            for level, stats in levels.items():
                cells = ", ".join(
                    f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                    for k, v in stats.items()
                )
                print(f"    L{level}: {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
