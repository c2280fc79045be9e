// Package robustness runs the paper's protocol on many seeds of the
// synthetic generator and summarises which results are properties of the
// method on that generator and which are properties of one seed.
//
// For each seed s (ParseSeeds reads lists such as "1-20"), RunSeed
//
//  1. generates the synthetic corpus with lib/synth (Config{Seed: s, Scale}),
//     writes it into a folder of its own,
//  2. prepares it with the Preparer (ingest into a per-seed database,
//     summaries, gold, vectors: lib/reproduce.Prepare in practice, injected so
//     that this package does not depend on the package that lays out its
//     tables),
//  3. runs the paper protocol with lib/experiment and nothing more: the five
//     single retrievers of Table 3, the 6 pairings × 21 β sweep and its
//     selection rule, the selected hybrid with question-level bootstrap
//     intervals, and the paired difference selected hybrid − best single
//     retriever (best by SelectionMetric, the first in Table 3 order on ties),
//     and returns a SeedResult.
//
// Run does that for every seed on Workers goroutines. Each seed's result is a
// pure function of the seed and the options: it never depends on the other
// seeds, the order they are given in or the number of workers, and Run
// returns the results ascending by seed.
//
// Aggregate turns the per-seed results into a Summary. For a quantity x_s
// (one retriever's macro metric on seed s; the selected hybrid's; the paired
// difference), over the n seeds:
//
//   - Mean = (1/n)·Σ x_s; Min and Max; P10 and P90, type-7 quantiles
//     (bootstrap.Quantile7) of the sorted x_s;
//   - SeedCI, the seed-level percentile bootstrap interval of the mean: B
//     resamples of n seeds drawn with replacement by bootstrap.NewIndices(B,
//     n, Seed), the 2.5th and 97.5th type-7 percentiles of their means. It
//     answers "how well do n seeds pin down the generator's mean", and
//     shrinks like 1/√n;
//   - QuestionCI, the question-level interval of each seed (bootstrap over
//     that seed's questions, as in the paper) averaged bound by bound over
//     the seeds: the uncertainty one corpus of 100 questions carries, which
//     does not shrink with more seeds. When the spread of x_s over seeds is
//     about as wide as QuestionCI, a new corpus moves a result about as much
//     as a new question set would.
//
// It also counts, over the seeds: which pairing and β the sweep selects;
// which single retriever is best; how often the selected hybrid beats the
// best single retriever (and how often the paired interval excludes 0); how
// often each pairwise order of the single retrievers in the paper's Table 3
// holds (a later row above an earlier one, per metric); and whether each
// statement of Claims holds.
//
// Edge cases: no seeds is an error; one seed gives a degenerate seed-level
// interval (every resample is that seed); a seed whose pipeline fails stops
// Run with an error naming the seed.
//
// Imports: lib/synth, lib/experiment, lib/bootstrap, lib/metrics,
// lib/questions and golang.org/x/sync/errgroup; never lib/reproduce, which
// lays out the tables and the figure (reproduce.RunRobustness) and supplies
// the Preparer.
package robustness
