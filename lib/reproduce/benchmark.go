package reproduce

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/robustness"
)

// Files of a benchmark folder (`linemem benchmark`, results/benchmarks/<data set>/)
// beside the paper's tables and figures.
const (
	BenchmarkUsersSlug        = "users_per_user"     // per user: order, selection, gain
	BenchmarkUsersSpreadSlug  = "users_distribution" // every metric over users: user-level and question-level intervals
	BenchmarkUsersClaimsSlug  = "users_claims"       // on how many users each of the paper's statements holds
	BenchmarkUsersFile        = "users.json"         // the per-user results, aggregates only
	benchmarkUserLabelPattern = "user %02d"
)

// Users is the paper protocol run on each user's folder of one data set,
// aggregated over users as lib/robustness aggregates over seeds: user k is
// "seed" k, so SeedCI is the bootstrap interval that resamples users and
// QuestionCI the per-user question-level interval averaged over users.
// lib/benchmark's RunUsers fills it (or LoadUsers reads it back); its
// methods here lay it out.
type Users struct {
	Dataset string `json:"dataset"`
	*robustness.Summary
	Opts       Options `json:"-"`
	EmbedModel string  `json:"embed_model"`
	// HeldOut is each user's selected hybrid held out, in Results order;
	// empty when read from a users.json written without it.
	HeldOut []beyond.CorpusGain `json:"held_out,omitempty"`
}

// UserLabel names user k (from 1) in tables and unit results: users are
// numbered, never named.
func UserLabel(k int) string { return fmt.Sprintf(benchmarkUserLabelPattern, k) }

func (u *Users) n() int { return len(u.Results) }

func (u *Users) ofUsers(k int) string { return fmt.Sprintf("%d of %d", k, u.n()) }

func (u *Users) note() string {
	return fmt.Sprintf("%d users of %s, each searched over their own history only; per user the paper protocol only (BM25 with the %s tokenizer, vectors %s, the five single retrievers, the 6 pairings × 21 β sweep and its selection rule). Question-level intervals: percentile bootstrap over that user's questions (B = %d, seed = %d); user-level intervals: the same bootstrap over users (B = %d, seed = %d), type-7 percentiles.",
		u.n(), u.Dataset, u.Opts.Protocol.Tokenizer, u.EmbedModel, u.Opts.Protocol.B, u.Opts.Protocol.Seed, u.B, u.BootstrapSeed)
}

// shortNames maps single retriever names to their short labels (R-BM25, …).
func shortNames() map[string]string {
	m := map[string]string{}
	for _, s := range retrieval.Singles() {
		m[s.Name()] = s.Short()
	}
	return m
}

// SingleOrder lists r's single retrievers by metric (the protocol's
// selection metric), best first (ties: Table 3 order), as short labels
// joined by " > ".
func SingleOrder(r robustness.SeedResult, metric string) string {
	es := slices.Clone(r.Singles)
	slices.SortStableFunc(es, func(a, b robustness.Estimate) int {
		x, y := a.Metrics[metric].Mean, b.Metrics[metric].Mean
		switch {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	})
	short := shortNames()
	var names []string
	for _, e := range es {
		names = append(names, short[e.Name])
	}
	return strings.Join(names, " > ")
}

// PerUserTable has one row per user: chunks, questions, the single
// retrievers' order by Recall@5, the selected configuration, its Recall@5
// with the question-level interval, and its paired difference from the best
// single retriever with its interval. Users are numbered, never named.
func (u *Users) PerUserTable() report.Table {
	metric := u.Opts.Protocol.SelectionMetric
	t := report.Table{Slug: BenchmarkUsersSlug, Abbreviations: robustnessAbbreviations,
		Caption: fmt.Sprintf("The paper protocol on each of %d users of %s", u.n(), u.Dataset),
		Columns: []string{"User", "Chunks", "Random Recall@5", "Questions", "Single retrievers by Recall@5", "Best single", "Selected pairing", "β", "Hybrid Recall@5 (95% CI)", "Hybrid − best single, in sample (95% CI)"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignLeft, report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignLeft, report.AlignLeft},
	}
	if len(u.HeldOut) == u.n() {
		t.Columns = append(t.Columns, "… 5-fold held out (95% CI)", "… selected on the other users (95% CI)")
		t.Align = append(t.Align, report.AlignLeft, report.AlignLeft)
	}
	short := shortNames()
	for i, r := range u.Results {
		sel, gain := r.Selected.Metrics[metric], r.Gain[metric]
		row := []string{UserLabel(int(r.Seed)), fmt.Sprint(r.Chunks), report.F3(metrics.RandomRecall(r.Chunks, 1, 5)), fmt.Sprint(r.Questions), SingleOrder(r, metric), short[r.BestSingle],
			r.Selected.Pairing, fmt.Sprintf("%.2f", r.Selected.Beta),
			report.F3(sel.Mean) + " " + report.CI3(sel.Lo, sel.Hi), report.Signed3(gain.Mean) + " " + report.CI3(gain.Lo, gain.Hi)}
		if len(u.HeldOut) == u.n() {
			h := u.HeldOut[i]
			row = append(row, report.Signed3(h.KFold.Mean)+" "+report.CI3(h.KFold.Lo, h.KFold.Hi), report.Signed3(h.OtherCorpora.Mean)+" "+report.CI3(h.OtherCorpora.Lo, h.OtherCorpora.Hi))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = []string{u.note(), "Random Recall@5: the expected Recall@5 of a uniformly random ranking of the user's chunks, 5/chunks for any number of relevant chunks (metrics.RandomRecall). R: raw_text; S: summary; E: embedding_text; Vec: vector retrieval. In sample: the hybrid and the best single retriever are selected on the same user's questions they are scored on (the paper's rule); where β = 1.00 reproduces the best single retriever on every question (users_claims counts the users), this gain is ≥ 0 by construction. 5-fold held out: both are selected on four fifths of the user's questions and scored on the rest (beyond.NestedCV, seed as the bootstrap's). Selected on the other users: the configuration and single retriever with the highest mean Recall@5 over the other users. Intervals: paired percentile bootstrap over the user's questions."}
	return t
}

// DistributionTable lists every retriever and metric over users: the mean,
// its user-level interval (resampling users), the question-level interval
// averaged over users, and the smallest and largest user's value.
func (u *Users) DistributionTable() report.Table {
	t := report.Table{Slug: BenchmarkUsersSpreadSlug, Abbreviations: robustnessAbbreviations,
		Caption: fmt.Sprintf("Every metric over %d users of %s: resampling users beside resampling questions", u.n(), u.Dataset),
		Columns: []string{"Retriever", "Metric", "Mean over users", "Users 95% CI", "Questions 95% CI (mean)", "Min", "Max"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignRight},
	}
	for _, row := range u.Rows {
		f := report.F3
		if row.Retriever == robustness.HybridGain {
			f = report.Signed3
		}
		t.Rows = append(t.Rows, []string{row.Retriever, metricName(row.Metric), f(row.Mean), report.CI3(row.SeedCI.Lo, row.SeedCI.Hi),
			report.CI3(row.QuestionCI.Lo, row.QuestionCI.Hi), f(row.Min), f(row.Max)})
	}
	t.Notes = []string{u.note()}
	return t
}

// ClaimsTable lists robustness.Claims with the number of users on which each
// holds, then which pairing the sweep selects on how many users.
func (u *Users) ClaimsTable() report.Table {
	t := report.Table{Slug: BenchmarkUsersClaimsSlug, Abbreviations: robustnessAbbreviations,
		Caption: fmt.Sprintf("The paper's statements about its results, checked on %d users of %s", u.n(), u.Dataset),
		Columns: []string{"Statement", "Paper", "Holds on", "Share"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignRight},
	}
	for _, c := range u.Claims {
		t.Rows = append(t.Rows, []string{c.Statement, c.Paper, u.ofUsers(c.Seeds), report.Percent1(float64(c.Seeds) / float64(u.n()))})
	}
	if len(u.HeldOut) == u.n() {
		count := func(holds func(beyond.CorpusGain) bool) int {
			k := 0
			for _, h := range u.HeldOut {
				if holds(h) {
					k++
				}
			}
			return k
		}
		for _, c := range []struct {
			statement string
			holds     func(beyond.CorpusGain) bool
		}{
			{"β = 1.00 of a swept pairing reproduces the best single retriever on every question, so the in-sample hybrid is at least as good by construction", func(h beyond.CorpusGain) bool { return h.ByConstruction }},
			{"the selected hybrid's Recall@5 is above the best single retriever's, both selected on other folds of the user's questions (5-fold held out)", func(h beyond.CorpusGain) bool { return h.KFold.Mean > 0 }},
			{"… and the paired 95% CI of that held-out difference lies above 0", func(h beyond.CorpusGain) bool { return h.KFold.Lo > 0 }},
			{"the hybrid selected on the other users is above the single retriever selected on them", func(h beyond.CorpusGain) bool { return h.OtherCorpora.Mean > 0 }},
			{"… and the paired 95% CI of that difference lies above 0", func(h beyond.CorpusGain) bool { return h.OtherCorpora.Lo > 0 }},
		} {
			k := count(c.holds)
			t.Rows = append(t.Rows, []string{c.statement, "", u.ofUsers(k), report.Percent1(float64(k) / float64(u.n()))})
		}
	}
	for _, p := range u.Pairings {
		if p.Seeds > 0 {
			t.Rows = append(t.Rows, []string{"the sweep selects " + p.Label, "", u.ofUsers(p.Seeds), report.Percent1(float64(p.Seeds) / float64(u.n()))})
		}
	}
	for _, b := range u.BestSingles {
		if b.Seeds > 0 {
			t.Rows = append(t.Rows, []string{"the best single retriever is " + b.Label, "", u.ofUsers(b.Seeds), report.Percent1(float64(b.Seeds) / float64(u.n()))})
		}
	}
	t.Notes = []string{u.note()}
	if len(u.HeldOut) == u.n() {
		t.Notes = append(t.Notes, "The paper's statement that the selected hybrid beats the best single retriever is checked in sample first (the paper's rule, where it holds by construction whenever β = 1.00 reproduces the best single retriever on every question; min–max normalisation maps a one-member BM25 list to 0, so on some users it does not) and then held out: selected on other folds of the same user's questions, and selected on the other users. Only the held-out rows test fusion.")
	}
	return t
}

// Tables returns the per-user tables.
func (u *Users) Tables() []report.Table {
	ts := make([]report.Table, len(usersTables))
	for i, table := range usersTables {
		ts[i] = table(u)
	}
	return ts
}

// usersTables lay out the tables of a per-user benchmark, in order.
var usersTables = []func(*Users) report.Table{(*Users).PerUserTable, (*Users).DistributionTable, (*Users).ClaimsTable}

// usersArtefacts are what a per-user benchmark writes, in order: the tables
// of usersTables and users.json.
var usersArtefacts = append(tableRunArtefacts(usersTables),
	runArtefact[*Users]{strings.TrimSuffix(BenchmarkUsersFile, ".json"), func(u *Users) (Output, error) {
		data, err := report.JSON(savedUsers{u.Dataset, u.EmbedModel, u.Opts.Protocol.Tokenizer, u.Opts.Protocol.B, u.Opts.Protocol.Seed, u.B, u.BootstrapSeed, u.Results, u.HeldOut})
		return Output{File: &File{Name: BenchmarkUsersFile, Data: data}}, err
	}},
)

// savedUsers is users.json.
type savedUsers struct {
	Dataset    string                  `json:"dataset"`
	EmbedModel string                  `json:"embed_model"`
	Tokenizer  string                  `json:"tokenizer"`
	B          int                     `json:"question_bootstrap_b"`
	Seed       uint64                  `json:"question_bootstrap_seed"`
	UserB      int                     `json:"user_bootstrap_b"`
	UserSeed   uint64                  `json:"user_bootstrap_seed"`
	Results    []robustness.SeedResult `json:"users"` // "seed" k is user k
	HeldOut    []beyond.CorpusGain     `json:"held_out,omitempty"`
}

// WriteAll writes the tables and users.json into outDir.
func (u *Users) WriteAll(outDir string) ([]string, error) {
	width, height := u.Opts.FigureSize()
	return writeRun(u, usersArtefacts, outDir, width, height)
}

// LoadUsers reads users.json and aggregates it again.
func LoadUsers(path string) (*Users, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var saved savedUsers
	if err := json.Unmarshal(b, &saved); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sum, err := robustness.Aggregate(saved.Results, savedOptions(saved.Tokenizer, saved.UserB, saved.UserSeed).Protocol)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Users{Dataset: saved.Dataset, Summary: sum, Opts: savedOptions(saved.Tokenizer, saved.B, saved.Seed), EmbedModel: saved.EmbedModel, HeldOut: saved.HeldOut}, nil
}
