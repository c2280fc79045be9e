// Package workbench builds gold for a person's own history (paper §4.2–4.3,
// spec §13): it pools candidate chunks per question, records per-annotator
// judgments and keep/drop decisions, measures agreement between two
// annotators, and exports TREC qrels with the questions that keep gold.
//
// Pooling. For each question the pool is the union of
//   - the chunks resolved from its evidence items by lib/gold (every chunk
//     that holds a matched message), each remembering the item, how it
//     matched (gold.MatchExact or gold.MatchExcerpt) and its match score, and
//   - the top Depth chunks of each named retriever (TREC depth-K pooling), each
//     remembering the retriever, its rank (from 1) and its score,
//
// so the gold is not only what the evidence pointed at. A chunk reached
// several ways keeps every origin. Pooling a question again replaces its pool
// rows and evidence and keeps its judgments.
//
// Match score of an evidence item = min(1, |N(text_prefix)| / |N(text)|) with
// N = gold.Normalize and text the matched message: the share of the message
// the quoted excerpt covers (1 for a full quote, 0 when unmatched).
//
// Blind judging. View orders a question's rows by chunk start time, then
// chunk ID, whatever their origin; origins, ranks and match scores are filled
// in only when asked for (View with reveal = true).
//
// Judgments. One row per (annotator, qid, chunk_id) with rel 0, 1, 2 or
// none (a note without a label yet), a note, the time (RFC 3339), whether
// the label was given blind (the question's sources hidden), the seconds
// spent on the row and, of them, the seconds with the sources hidden (each
// NULL where unknown). The judgments JSONL (spec §13, §14) is {"qid",
// "chunk_id", "rel", "annotator"} plus optional "note", "at", "blind",
// "seconds" and "blind_seconds"; an import is one transaction, a repeated
// (annotator, qid, chunk_id) replaces the earlier row, and an unknown qid or
// chunk_id, a rel outside 0…2, a "blind" that is not a boolean, "seconds"
// outside 0…MaxSeconds, "blind_seconds" outside 0…seconds or an annotator
// name CheckPerson refuses is an input error naming FILE:LINE.
//
// History. Every change of a label, a note or a keep/drop is an event in
// gold_events with the value before and after it. Undo takes back the
// annotator's newest event in effect, Redo applies the last one taken back
// again; a new change drops what could have been redone (kept in the
// history, state "dropped"). Successive edits of one row's note are one
// event. The history lives in the database, so it survives a reload or a
// restart.
//
// Adjudication. For two annotators A and B, the rows they label differently
// are listed, then apart the rows only one of them labelled; choosing a
// label writes it as annotator Consensus and records the labels A and B had
// on the row then. The consensus is computed, never frozen: at each call
// (Bench.Consensus, the export, each load of the Adjudicate page) it is the
// rows A and B agree on now, plus the adjudicated rows whose disagreement
// still stands (A and B keep the labels the adjudication saw), plus, when
// asked, the rows only one of them labelled with that label. An
// adjudication made obsolete by a later agreement or by a changed label is
// reported and does not count. A's and B's labels never change, so their κ
// stays what it was.
//
// Agreement. Cohen's κ = (p_o − p_e)/(1 − p_e) over the rows both annotators
// labelled, p_o the observed share of equal labels and p_e = Σ_c p_A(c)·p_B(c)
// the agreement expected from the two marginal distributions. The weighted κ
// uses linear weights on the ordinal 0/1/2 scale: w_ij = 1 − |i − j|/2, so a
// 0-versus-2 disagreement costs twice a 1-versus-2 one:
// κ_w = (Σ w_ij o_ij − Σ w_ij e_ij)/(1 − Σ w_ij e_ij) with o and e the observed
// and expected cell shares. Both are undefined (NaN) when no row was labelled
// by both or when the expected agreement is 1 (both annotators used one and
// the same label throughout).
//
// Export. For one annotator: qrels of every labelled row (relevance 0
// included) of the retained questions, and the retained questions themselves,
// in pooling order. A question is retained when it has at least one chunk
// labelled 2 and the annotator did not drop it; every other question is
// reported with its reason (dropped by the annotator, no row labelled, no
// relevance-2 chunk). Unlabelled pool rows are counted: the paper's
// evaluation treats them as relevance 0.
//
// Evidence groups (gold.Groups, the definition the study's evidence-group
// analysis uses too): an annotator's relevance-2 chunks that hold the same
// matched answer message form one group (overlapping windows hold the same
// message), groups sharing a chunk merge, and a relevance-2 chunk holding no
// answer message is a group of its own. Group recall@k is the share of a
// question's groups with at least one member in the top k, reported beside
// the paper's chunk-level recall, which counts every overlapping window
// separately.
//
// Imports: lib/chat, lib/gold, lib/questions, lib/retrieval, lib/store,
// lib/trec, lib/jsonl, lib/inputerr and the standard library.
package workbench
