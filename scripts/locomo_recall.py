#!/usr/bin/env python3
"""LoCoMo's retrieval recall recomputed independently of linemem's Go code.

Follows snap-research/locomo task_eval/evaluation.py (eval_question_answering):
for a question with evidence, recall = the share of its evidence IDs (a list,
compared as written) found among the retrieved IDs; when the retrieved IDs
are sessions ("S<n>"), an evidence ID "D<n>:<t>" counts when its session
number ev.split(':')[0][1:] is among them; a question without evidence
scores 1. Every category counts, and the overall figure is the mean over all
questions (evaluation_stats.analyze_acc).

Reads the run files `linemem benchmark` writes into WORK/units-runs/ (their
document column is the ID LoCoMo compares) and native.jsonl of the converted
folder, prints recall@k per run file and, given units.json, the largest
difference from linemem's own figures.

    python3 scripts/locomo_recall.py build/datasets/locomo.work/units-runs \\
        build/datasets/locomo/native.jsonl results/benchmarks/locomo/units.json
"""
import json
import os
import sys
from collections import defaultdict

CUTOFFS = [1, 5, 10, 25, 50]


def read_run(path):
    run = defaultdict(list)
    with open(path) as f:
        for line in f:
            qid, _, doc, rank, _score, _tag = line.split()
            run[qid].append((int(rank), doc))
    return {q: [d for _, d in sorted(hits)] for q, hits in run.items()}


def recall(context, evidence):
    if len(evidence) == 0:
        return 1.0
    if context and context[0].startswith("S"):
        sessions = [c[1:] for c in context]
        return float(sum(ev.split(":")[0][1:] in sessions for ev in evidence)) / len(evidence)
    return float(sum(ev in context for ev in evidence)) / len(evidence)


def main(runs_dir, native_path, units_path=None):
    native = [json.loads(line) for line in open(native_path) if line.strip()]
    ours = {}
    for name in sorted(os.listdir(runs_dir)):
        if not name.endswith(".run"):
            continue
        run = read_run(os.path.join(runs_dir, name))
        values = []
        for k in CUTOFFS:
            scores = [recall(run.get(q["qid"], [])[:k], q["evidence"]) for q in native]
            values.append(sum(scores) / len(scores))
        ours[name[: -len(".run")]] = values
        print(f"{name:50s} " + " ".join(f"R@{k} {v:.6f}" for k, v in zip(CUTOFFS, values)))
    if units_path is None:
        return 0
    linemem = linemem_figures(json.load(open(units_path)))
    worst = 0.0
    for key, values in ours.items():
        if key not in linemem:
            print(f"{key}: not in {units_path}", file=sys.stderr)
            return 1
        worst = max(worst, max(abs(a - b) for a, b in zip(values, linemem[key])))
    print(f"largest difference from {units_path}: {worst:.2e}")
    return 0 if worst < 1e-9 else 1


def linemem_figures(units):
    """Question-weighted LoCoMo recall per SCOPE_UNIT_RUN from units.json."""
    sums = defaultdict(lambda: [0.0] * len(CUTOFFS))
    counts = defaultdict(int)
    for c in units["corpora"]:
        scope = "pooled" if c["scope"] == "pooled haystack" else "per_conversation"
        for row in c["rows"]:
            run = {"raw_text_bm25": "raw_text_bm25", "selected hybrid (in sample)": "selected"}.get(row["retriever"])
            if run is None:
                continue
            key = f"{scope}_{c['unit']}_{run}"
            for i, k in enumerate(CUTOFFS):
                sums[key][i] += row["locomo_recall"][f"recall@{k}"] * c["native_questions"]
            counts[key] += c["native_questions"]
    return {k: [v / counts[k] for v in s] for k, s in sums.items()}


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
