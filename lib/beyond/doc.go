// Package beyond computes the analyses beyond the paper: limits that the
// paper names in §7–§9 and leaves unmeasured, measured with its protocol
// (experiment.Protocol: top-RunDepth runs, per-question metrics,
// percentile-bootstrap intervals from one seeded B × n matrix, paired
// differences on shared resamples). Each analysis takes the study's
// protocol run, an experiment.Outcome (its Setup, single retrievers, sweep
// and selection, each run once), and what it needs beyond it (a corpus, a
// store) and returns a plain result struct; laying results out as tables
// and figures is lib/reproduce's job, and the CLI and notebooks can use the
// structs as they are.
//
//   - CompareTokenizers (tokenizers.go): BM25 on every representation under
//     every tokenizer, paired against the paper's.
//   - CompareFusion (fusion.go): the selected pairing fused by the linear,
//     z-score and RRF rules, through the same sweep.
//   - HeldOutSelection (heldout.go): the paper's selection rule applied on
//     random half splits and scored on the other half.
//   - CompareRemedies (remedies.go): remedies for aggregate questions, by
//     question type.
//   - QueryExpansion (expansion.go): multi-query retrieval that changes the
//     candidates.
//   - Ablation (ablation.go): the components of embedding_text, each alone
//     and composed.
//   - RunProtocol (lossless.go): the whole protocol on another chunking
//     (lossless windows).
//   - NestedCV and SelectionAware (selection.go): an honest estimate of the
//     selected hybrid's gain.
//   - CompareEvidenceGroups (groups.go): evidence-group recall beside chunk
//     recall.
//   - Answers (answers.go): extractive answers from two retrievers' top k,
//     scored (lib/answereval).
//   - OfflineExpansion (expansion_offline.go): QueryExpansion with the
//     offline expanders over the study's retrievers.
//   - HeldOutGain and OtherCorporaGains (corpus_gain.go): one corpus's
//     hybrid gain held out within it and selected on the other corpora.
//   - SessionNativeScores (native.go): LongMemEval's native metrics at the
//     session unit.
//   - RunUnit (units.go): the protocol at the field's units (turn, session,
//     chunk).
//
// Every analysis reads the bootstrap, the metrics and the selection metric
// from one experiment.Protocol (the Outcome's, or one passed in); nothing
// here falls back to the paper's values. Families of paired comparisons
// (CompareOn, compare.go) carry two-sided bootstrap p-values
// (bootstrap.PairedP) with Holm's correction (bootstrap.Holm) across the
// family.
//
// It imports the evaluation floors (experiment, retrieval, fusion, analysis,
// metrics, bootstrap, represent, tokenize, gold, chunking, provider/lsa,
// expand), the everyday search and answers (memory, answer, answereval) and
// the data types of chat, questions, store and trec, never lib/reproduce or
// lib/report.
package beyond
