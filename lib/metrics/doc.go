// Package metrics scores ranked runs against graded qrels (spec §10): one
// metric per file (Recall, MRR, Success, NDCG; LongMemEval's RecallAny,
// RecallAll and NDCGAny in native.go, with UnitRanking for session and turn
// granularity and LoCoMo's EvidenceRecall; LoCoMoRecall as LoCoMo's own
// code scores retrieval in locomo.go; the random-ranking floors in
// random.go), one registry that maps names
// such as "recall@5", "ndcg@10" or "recall_all@10" to them, and Evaluate, which keeps the
// per-question scores next to their macro means, overall and per question
// type. Bootstrap intervals, sweeps and failure tables start from those
// per-question vectors.
//
// Relevance is graded 0, 1, 2. G2(q), the "primary gold" of question q, is the
// set of chunks with rel 2; Recall, MRR and Success count only G2, nDCG uses
// every grade. Chunks that a run returns but the qrels do not judge have
// rel 0. A ranked list d1…dn is cut at min(k, n) entries.
//
// # Interoperability with trec_eval, ranx and ir_measures
//
// Runs and qrels written by package trec can be scored by other tools; the
// numbers agree with this package under these settings:
//
//   - Recall@k and Success@k equal trec_eval's recall.k and success.k only with
//     relevance level 2 (`trec_eval -l 2`): trec_eval counts rel ≥ 1 as
//     relevant by default, this package counts rel = 2.
//   - MRR@k is ir_measures' RR(rel=2)@k. trec_eval's recip_rank has no cutoff.
//   - nDCG@k uses the exponential gain 2^rel − 1 (ranx's "ndcg_burges").
//     trec_eval's ndcg_cut.k, ir_measures' nDCG@k and ranx's "ndcg" use the
//     linear gain rel; the two agree for rel ∈ {0, 1} and differ where a rel-2
//     chunk is involved (gain 3 here, 2 there), in DCG and in IDCG alike.
//   - trec_eval ignores the rank column: it re-sorts each question's hits by
//     score descending and breaks ties by chunk ID descending. A run whose
//     tied scores are ordered otherwise (spec §9's BM25 order breaks ties by
//     start_at first) may score differently there; this package always uses
//     the order of the run as given.
package metrics
