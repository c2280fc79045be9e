// Package analysis derives the paper's selection and diagnostic tables from
// runs and qrels (spec §10, paper §6–§7): the sweep's selection rule, Top-k
// failures with their rule labels (Tables 7 and 8), aggregate-question
// diagnostics, Top-K sensitivity (Figure 6), the success overlap of two
// component retrievers (Table 9) and the candidate ceiling of a hybrid.
//
// Every score comes from package metrics (Evaluate and its per-question
// vectors); nothing here re-implements a metric. Like metrics.Evaluate, all
// analyses consider only evaluated questions, those with non-empty primary
// gold G2; excluded questions are neither failures nor successes.
package analysis

// Overall names the row that aggregates every question type.
const Overall = "overall"
