package reproduce

import (
	"fmt"
	"slices"
	"strings"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/report"
)

// Files of the real-conversation study at the field's units (`linemem
// benchmark` on a data set with native questions: LoCoMo).
const (
	BenchmarkUnitsSlug          = "units_recall"    // every unit and retriever: the paper's metrics, LoCoMo's recall, the random floor
	BenchmarkUnitsSelectionSlug = "units_selection" // the selected hybrid in sample and held out, per unit
	BenchmarkUnitsFile          = "units.json"      // the same, aggregates only
)

// Scopes of the units study.
const (
	ScopePerConversation = "per conversation"
	ScopePooled          = "pooled haystack"
)

// UnitsStudy is the protocol at the turn, session and chunk unit on each
// conversation of a data set, and at the turn and chunk unit on the pooled
// haystack (every conversation in one corpus, each question searched against
// all; at the chunk unit it is the corpus of the paper's pooled tables).
// lib/benchmark's RunUnits fills it with beyond.RunUnit's results; its
// methods here lay them out.
type UnitsStudy struct {
	Dataset  string
	Protocol experiment.Protocol
	// PerConversation maps each unit to one result per conversation, in
	// user folder order.
	PerConversation map[string][]*beyond.UnitResult
	Pooled          map[string]*beyond.UnitResult // by unit, PooledUnits that were run
	// EncoderModel names the model that embedded every unit's documents,
	// each text capped at EncoderCap characters; "" for the LSA fit per
	// corpus.
	EncoderModel string
	EncoderCap   int

	indices map[int]*bootstrap.Indices // one resample matrix per question count
}

// PerConversationUnits are the units run on each conversation, and
// PooledUnits those run on the pooled haystack, in table order.
var (
	PerConversationUnits = []string{beyond.UnitTurn, beyond.UnitSession, beyond.UnitChunk}
	PooledUnits          = []string{beyond.UnitTurn, beyond.UnitChunk}
)

// UnitsScope is the results of one scope (ScopePerConversation or
// ScopePooled) and unit, laid side by side: per-question vectors are
// concatenated over its corpora.
type UnitsScope struct {
	Scope, Unit string
	Results     []*beyond.UnitResult // per conversation in user folder order; one when pooled
}

// Scopes lists the scopes and units that were run: per conversation in
// PerConversationUnits order, then pooled in PooledUnits order.
func (u *UnitsStudy) Scopes() []UnitsScope {
	var out []UnitsScope
	for _, unit := range PerConversationUnits {
		if len(u.PerConversation[unit]) > 0 {
			out = append(out, UnitsScope{ScopePerConversation, unit, u.PerConversation[unit]})
		}
	}
	for _, unit := range PooledUnits {
		if r := u.Pooled[unit]; r != nil { // nil: the unit was not run
			out = append(out, UnitsScope{ScopePooled, unit, []*beyond.UnitResult{r}})
		}
	}
	return out
}

func (sc UnitsScope) documents() string {
	if len(sc.Results) == 1 {
		return fmt.Sprint(sc.Results[0].Documents)
	}
	lo, hi, sum := sc.Results[0].Documents, sc.Results[0].Documents, 0
	for _, r := range sc.Results {
		lo, hi, sum = min(lo, r.Documents), max(hi, r.Documents), sum+r.Documents
	}
	return fmt.Sprintf("%d–%d (Σ %d)", lo, hi, sum)
}

// concat joins per-corpus vectors.
func concat(parts [][]float64) []float64 {
	var out []float64
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// ix returns the B × n resample matrix of the protocol's seed, drawn once
// per n, so every interval over the same questions shares its resamples.
func (u *UnitsStudy) ix(n int) *bootstrap.Indices {
	n = max(n, 1)
	if u.indices == nil {
		u.indices = map[int]*bootstrap.Indices{}
	}
	if u.indices[n] == nil {
		u.indices[n] = bootstrap.NewIndices(u.Protocol.B, n, u.Protocol.Seed)
	}
	return u.indices[n]
}

func (u *UnitsStudy) interval(x []float64) experiment.Interval {
	return meanInterval(u.ix(len(x)), x, u.Protocol.Level)
}

func (u *UnitsStudy) gain(hybrid, single []float64) beyond.Gain {
	return beyond.PairedGain(u.ix(len(hybrid)), hybrid, single, u.Protocol.Level)
}

// unitsRowLabel names a row: the selected hybrid is "selected hybrid
// (in sample)"; the everyday row keeps its tokenizer.
func unitsRowLabel(i, n int, name string) string {
	if i == n-1 {
		return "selected hybrid (in sample)"
	}
	return name
}

// RecallTable lays out every scope, unit and retriever: the paper's
// Recall@5, Success@5 and MRR@5 over the questions with primary gold (95%
// percentile bootstrap over those questions, concatenated over the
// conversations of a scope), LoCoMo's recall at beyond.LoCoMoCutoffs over
// every native question (metrics.LoCoMoRecall), and the random-ranking
// floor of each corpus.
func (u *UnitsStudy) RecallTable() report.Table {
	t := report.Table{Slug: BenchmarkUnitsSlug,
		Caption:       fmt.Sprintf("%s at the field's units: the paper's metrics and LoCoMo's own recall, with the random-ranking floor", u.Dataset),
		Columns:       []string{"Scope", "Unit", "Documents", "Retriever", "Recall@5 (95% CI)", "Success@5 (95% CI)", "MRR@5 (95% CI)"},
		Align:         []report.Alignment{report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignLeft, report.AlignLeft, report.AlignLeft, report.AlignLeft},
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}, {Full: "Success@", Short: "S@"}, {Full: "per conversation", Short: "per conv."}},
	}
	for _, k := range beyond.LoCoMoCutoffs {
		t.Columns = append(t.Columns, fmt.Sprintf("LoCoMo R@%d", k))
		t.Align = append(t.Align, report.AlignRight)
	}
	var paperN, nativeN int
	for _, sc := range u.Scopes() {
		rows := len(sc.Results[0].Rows)
		paperN, nativeN = 0, 0
		for _, r := range sc.Results {
			paperN += len(r.QIDs)
			nativeN += len(r.NativeQIDs)
		}
		for i := 0; i <= rows; i++ {
			get := func(r *beyond.UnitResult) beyond.UnitRow {
				if i == rows {
					return r.Floor
				}
				return r.Rows[i]
			}
			label := get(sc.Results[0]).Retriever
			if i < rows {
				label = unitsRowLabel(i, rows, label)
			}
			row := []string{sc.Scope, sc.Unit, sc.documents(), label}
			for _, m := range beyond.FloorMetrics {
				var parts [][]float64
				for _, r := range sc.Results {
					parts = append(parts, get(r).PerQuestion[m])
				}
				x := concat(parts)
				if i == rows {
					row = append(row, report.F3(meanOf(x)))
					continue
				}
				row = append(row, ivCell(u.interval(x)))
			}
			for j := range beyond.LoCoMoCutoffs {
				var parts [][]float64
				for _, r := range sc.Results {
					parts = append(parts, get(r).LoCoMo[j])
				}
				row = append(row, report.F3(meanOf(concat(parts))))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	t.Notes = []string{
		fmt.Sprintf("Units: turn = one document per dialogue turn (LoCoMo's dialog); session = one document per session (chunking.SessionOptions, no window, no render limit); chunk = the paper's 42-message windows under the 5,000-character limit. Per conversation: each conversation is its own corpus and each question is searched in its own conversation; documents give the range over conversations and their sum. Pooled haystack: all conversations in one corpus, every question searched against all of it, at the turn unit and at the chunk unit (the corpus of the paper's pooled tables; vectors refitted here)."),
		fmt.Sprintf("Recall@5, Success@5, MRR@5: the paper's metrics over the questions with primary gold (%d per conversation scope), gold resolved from evidence.jsonl over each unit's documents; 95%% percentile bootstrap over those questions (B = %d, seed = %d).", paperN, u.Protocol.B, u.Protocol.Seed),
		fmt.Sprintf("LoCoMo R@k: retrieval recall as LoCoMo's task_eval/evaluation.py computes it (metrics.LoCoMoRecall): the share of a question's evidence IDs, as written, among the dialog IDs of the top k documents; a question without evidence scores 1; all five categories count, the adversarial category 5 included (%d questions per scope). At the session unit LoCoMo compares session numbers; at the chunk unit (not a LoCoMo unit) an evidence ID counts when any of the top k chunks holds its turn.", nativeN),
		"Random ranking (expected): the mean over the same questions of the closed-form expectation under a uniformly random order of that corpus (metrics.RandomRecall, RandomSuccess, RandomMRR; hypergeometric), with the number of each question's relevant documents; no interval, it is exact for the corpus.",
		fmt.Sprintf("Retrievers: the protocol's five single retrievers with the %s tokenizer, raw_text BM25 with the everyday tokenizer, and the hybrid the sweep (6 pairings × 21 β) selects on the same questions (in sample; see %s for held-out figures). Vectors: %s; summaries are LoCoMo's session summaries lent to every document of the session.", u.Protocol.Tokenizer, BenchmarkUnitsSelectionSlug, u.vectorsNote()),
	}
	return t
}

// vectorsNote says where the units study's vectors come from.
func (u *UnitsStudy) vectorsNote() string {
	if u.EncoderModel != "" {
		return fmt.Sprintf("%s embedding every document and question at each unit (capped at %d characters)", u.EncoderModel, u.EncoderCap)
	}
	return "the local LSA embedder fitted on each corpus's documents at each unit (so the chunk unit's dense rows differ from users_per_user, whose vectors were fitted once on the pooled chunks)"
}

// SelectionTable lays out, per scope and unit, the selected hybrid's
// Recall@5 and its paired gain over the best single retriever in sample
// (both selected on all questions), held out by k-fold selection within
// each corpus (beyond.NestedCV), and, per conversation, selected on the
// other conversations (beyond.OtherCorpora), with 95% bootstrap intervals
// over the questions.
func (u *UnitsStudy) SelectionTable() report.Table {
	t := report.Table{Slug: BenchmarkUnitsSelectionSlug,
		Caption:       fmt.Sprintf("%s: the selected hybrid's gain over the best single retriever, in sample and held out", u.Dataset),
		Columns:       []string{"Scope", "Unit", "Selected in sample (most often)", "In sample: hybrid R@5", "In sample: gain (95% CI)", "5-fold held out: hybrid R@5", "5-fold held out: gain (95% CI)", "Other conversations: gain (95% CI)", "Held-out gain > 0"},
		Align:         []report.Alignment{report.AlignLeft, report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignLeft, report.AlignRight, report.AlignLeft, report.AlignLeft, report.AlignRight},
		Abbreviations: []report.Abbreviation{{Full: "per conversation", Short: "per conv."}},
	}
	for _, sc := range u.Scopes() {
		var inH, inS, cvH, cvS [][]float64
		var sels []beyond.Selection
		counts := map[string]int{}
		positive := 0
		for _, r := range sc.Results {
			h, s := r.InSample()
			inH, inS = append(inH, h), append(inS, s)
			cvH, cvS = append(cvH, r.CV.HybridOOF), append(cvS, r.CV.SingleOOF)
			sels = append(sels, r.Selection)
			counts[r.Selected]++
			if meanOf(r.CV.HybridOOF) > meanOf(r.CV.SingleOOF) {
				positive++
			}
		}
		in := u.gain(concat(inH), concat(inS))
		cv := u.gain(concat(cvH), concat(cvS))
		other := "–"
		if oh, os, _ := beyond.OtherCorpora(sels); oh != nil {
			g := u.gain(concat(oh), concat(os))
			other = report.Signed3(g.Diff.Mean) + " " + report.CI3(g.Diff.Lo, g.Diff.Hi)
		}
		t.Rows = append(t.Rows, []string{sc.Scope, sc.Unit, mostOften(counts, len(sc.Results)),
			report.F3(in.Hybrid.Mean), report.Signed3(in.Diff.Mean) + " " + report.CI3(in.Diff.Lo, in.Diff.Hi),
			report.F3(cv.Hybrid.Mean), report.Signed3(cv.Diff.Mean) + " " + report.CI3(cv.Diff.Lo, cv.Diff.Hi),
			other, fmt.Sprintf("%d of %d", positive, len(sc.Results))})
	}
	t.Notes = []string{
		"In sample: the paper's rule, the first maximum of Recall@5 over the 126 configurations and over the five single retrievers, chosen and scored on the same questions. β = 1.00 of a pairing ranks by its BM25 component alone (min–max normalisation aside, which maps a one-member list to 0), so where the best single retriever is a BM25 retriever the in-sample hybrid is at least as good by construction (every corpus here): an in-sample gain ≥ 0 is not evidence for fusion.",
		fmt.Sprintf("5-fold held out: the questions of each corpus are split into %d folds (beyond.FoldAssignment, seed %d); the hybrid configuration and the single retriever are selected by the same rule on four folds and scored on the fifth, so every question is scored by choices that never saw it. Other conversations: for each conversation the configuration and the single retriever with the highest mean Recall@5 over the other conversations (each weighing the same). Held-out gain > 0: conversations whose 5-fold held-out hybrid mean exceeds the held-out single retriever's.", beyond.NestedFolds, u.Protocol.Seed),
		fmt.Sprintf("Gains: hybrid − single Recall@5, paired over the questions of the scope (concatenated over conversations); 95%% percentile bootstrap (B = %d, seed = %d).", u.Protocol.B, u.Protocol.Seed),
	}
	return t
}

// mostOften names the configuration selected most often (ties: the first
// by name) and on how many corpora.
func mostOften(counts map[string]int, n int) string {
	var names []string
	for k := range counts {
		names = append(names, k)
	}
	slices.Sort(names)
	best := ""
	for _, k := range names {
		if best == "" || counts[k] > counts[best] {
			best = k
		}
	}
	if n == 1 {
		return best
	}
	return fmt.Sprintf("%s (%d of %d)", best, counts[best], n)
}

// savedUnit is one corpus of units.json: aggregates only.
type savedUnit struct {
	Scope      string             `json:"scope"`
	Corpus     string             `json:"corpus"`
	Unit       string             `json:"unit"`
	Documents  int                `json:"documents"`
	Questions  int                `json:"questions_with_gold"`
	Native     int                `json:"native_questions"`
	Selected   string             `json:"selected_in_sample"`
	BestSingle string             `json:"best_single_in_sample"`
	Rows       []savedUnitRow     `json:"rows"`
	Floor      savedUnitRow       `json:"random_floor"`
	HeldOut    map[string]float64 `json:"held_out"`
}

type savedUnitRow struct {
	Retriever string             `json:"retriever"`
	Paper     map[string]float64 `json:"paper"`
	LoCoMo    map[string]float64 `json:"locomo_recall"`
}

func saveRow(r beyond.UnitRow) savedUnitRow {
	s := savedUnitRow{Retriever: r.Retriever, Paper: map[string]float64{}, LoCoMo: map[string]float64{}}
	for _, m := range beyond.FloorMetrics {
		s.Paper[m] = meanOf(r.PerQuestion[m])
	}
	for j, k := range beyond.LoCoMoCutoffs {
		s.LoCoMo[fmt.Sprintf("recall@%d", k)] = meanOf(r.LoCoMo[j])
	}
	return s
}

// unitsArtefacts are what a units study writes, in order: its two tables
// and units.json.
var unitsArtefacts = append(tableRunArtefacts([]func(*UnitsStudy) report.Table{(*UnitsStudy).RecallTable, (*UnitsStudy).SelectionTable}),
	runArtefact[*UnitsStudy]{strings.TrimSuffix(BenchmarkUnitsFile, ".json"), func(u *UnitsStudy) (Output, error) {
		data, err := u.saved()
		return Output{File: &File{Name: BenchmarkUnitsFile, Data: data}}, err
	}},
)

// saved renders units.json: every corpus and unit with its rows, the random
// floor and the held-out means.
func (u *UnitsStudy) saved() ([]byte, error) {
	var saved []savedUnit
	for _, sc := range u.Scopes() {
		for _, r := range sc.Results {
			su := savedUnit{Scope: sc.Scope, Corpus: r.Label, Unit: r.Unit, Documents: r.Documents, Questions: len(r.QIDs), Native: len(r.NativeQIDs),
				Selected: r.Selected, BestSingle: r.BestSingle, Floor: saveRow(r.Floor),
				HeldOut: map[string]float64{"hybrid_recall@5": meanOf(r.CV.HybridOOF), "single_recall@5": meanOf(r.CV.SingleOOF)}}
			for i, row := range r.Rows {
				sr := saveRow(row)
				sr.Retriever = unitsRowLabel(i, len(r.Rows), row.Retriever)
				su.Rows = append(su.Rows, sr)
			}
			saved = append(saved, su)
		}
	}
	return report.JSON(struct {
		Dataset string      `json:"dataset"`
		Metric  string      `json:"selection_metric"`
		Folds   int         `json:"folds"`
		Seed    uint64      `json:"seed"`
		Corpora []savedUnit `json:"corpora"`
	}{u.Dataset, u.Protocol.SelectionMetric, beyond.NestedFolds, u.Protocol.Seed, saved})
}

// WriteAll writes the two tables and units.json into outDir.
func (u *UnitsStudy) WriteAll(outDir string) ([]string, error) {
	return writeRun(u, unitsArtefacts, outDir, report.DefaultWidth, report.DefaultHeight)
}
