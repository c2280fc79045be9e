package reproduce

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"

	"github.com/linemem/linemem/lib/answereval"
	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
)

// Slugs of the evidence-attributed answers (spec §13): the table, and the
// figure of citation recall against the retrieval ceiling.
const (
	AnswersSlug       = "beyond_answers"
	AnswersFigureSlug = "beyond_answers_citation_recall"
)

// The evidence-attributed answers: their table and figure.
var (
	answersTableArtefact = tableArtefact(AnswersSlug, NeedsSweep|NeedsAnswers, false, func(s *Study) (report.Table, error) {
		runs, err := answers(s)
		if err != nil {
			return report.Table{}, err
		}
		return AnswersTable(runs, s.Protocol.B, s.Protocol.Seed), nil
	})
	answersFigureArtefact = figureArtefact(AnswersFigureSlug, NeedsSweep|NeedsAnswers, false, func(s *Study) (Figure, error) {
		runs, err := answers(s)
		if err != nil {
			return Figure{}, err
		}
		p, err := AnswersFigure(runs)
		return Figure{Slug: AnswersFigureSlug, Plot: p, Notes: []string{"Rows: question type · retriever · quantity; gold in top k bounds the citation recall an answerer can reach from the chunks supplied."}}, err
	})
)

// answers is beyond.Answers of the Study, once.
func answers(s *Study) ([]answereval.Run, error) {
	return cached(s, "answers", func() ([]answereval.Run, error) { return beyond.Answers(s.Outcome, s.Store, s.EmbedModel) })
}

// answerMetricLabels name the metrics in the table, in answereval.Metrics order.
var answerMetricLabels = map[string]string{
	answereval.InReach:              "Gold in top k",
	answereval.CitationPrecision:    "Citation precision",
	answereval.CitationRecall:       "Citation recall",
	answereval.TokenF1:              "Token F1",
	answereval.ExactMatch:           "Exact match",
	answereval.Abstention:           "Abstained",
	answereval.AbstentionOutOfReach: "Abstained, gold out of reach",
	answereval.AbstentionInReach:    "Abstained, gold in reach",
}

// answerMetricOrder is the row order within a run: the retrieval ceiling
// first, then attribution, answer quality and abstention.
var answerMetricOrder = []string{answereval.InReach, answereval.CitationPrecision, answereval.CitationRecall, answereval.TokenF1,
	answereval.ExactMatch, answereval.Abstention, answereval.AbstentionOutOfReach, answereval.AbstentionInReach}

// AnswersTable lays runs out with one row per run and metric and one column
// per question type (overall first, with its number of questions). A cell is
// the macro mean and its 95% percentile-bootstrap interval, with the number
// of questions where the metric is defined when that is fewer than the
// group's; no question or answer text.
func AnswersTable(runs []answereval.Run, b int, seed uint64) report.Table {
	t := report.Table{
		Slug:    AnswersSlug,
		Caption: "Evidence-attributed answers from the top-k chunks, by question type",
		Columns: []string{"Retriever", "Metric"},
	}
	order := append([]string{answereval.AllTypes}, questions.Types...)
	var groups []string
	for _, typ := range order {
		for _, g := range runs0(runs).Groups {
			if g.Name != typ {
				continue
			}
			name := typ
			if typ == answereval.AllTypes {
				name = "overall"
			}
			t.Columns = append(t.Columns, fmt.Sprintf("%s (%d)", name, g.Questions))
			groups = append(groups, typ)
		}
	}
	for _, run := range runs {
		byName := map[string]answereval.Group{}
		for _, g := range run.Groups {
			byName[g.Name] = g
		}
		for _, m := range answerMetricOrder {
			row := []string{run.Label, answerMetricLabels[m]}
			for _, typ := range groups {
				g, ok := byName[typ]
				if !ok {
					row = append(row, "–")
					continue
				}
				cell := withCI(g.Metrics[m])
				if n := g.Metrics[m].N; n > 0 && n < g.Questions {
					cell += fmt.Sprintf(" (n = %d)", n)
				}
				row = append(row, cell)
			}
			t.Rows = append(t.Rows, row)
		}
	}
	var notes []string
	for _, run := range runs {
		line := fmt.Sprintf("%s: retriever %s, top %d chunks, answerer %s (%s)", run.Label, run.Retriever, run.K, run.Provider, run.Model)
		if run.PromptVersion != "" {
			line += ", prompt " + run.PromptVersion
		}
		if n := len(run.Scores.Excluded); n > 0 {
			line += fmt.Sprintf("; %d questions without primary gold excluded", n)
		}
		notes = append(notes, line+".")
	}
	notes = append(notes, "Chunks come from lib/memory, the everyday search, under the study's tokenizer and vectors; where a question's BM25 terms match nothing it falls back to chunks holding the question's words as written, so Gold in top k can exceed the protocol's Success@k.")
	notes = append(notes,
		"Gold in top k: a primary-gold chunk is among the chunks supplied. Citation precision: cited chunks with rel ≥ 1 over cited chunks, on answers that cite. Citation recall: primary gold cited over primary gold. "+
			"Token F1 on "+runs0(runs).F1Tokenizer+" tokens of the answer (citations removed) against the reference answer; exact match after NFKC, lowercasing and removing spaces, punctuation and symbols; an abstention scores 0 on both. "+
			"Abstained, gold out of reach: on questions whose primary gold was not supplied, where abstaining is right. Abstained, gold in reach: on questions whose primary gold was supplied.",
		fmt.Sprintf("Macro means over the questions where a metric is defined (n when fewer than the column's); percentile bootstrap, B = %d, seed = %d, each mean resampling its own questions. "+
			"Reference answers of the synthetic corpus are the planted value (named_entity) or the planted episodes' descriptions (contextual, aggregate), so token F1 of a chat-line answer is bounded by the length mismatch and exact match is near 0 by construction.", b, seed))
	t.Notes = notes
	// Short retriever and metric names keep the label columns narrow in
	// LaTeX, so the four interval columns get the width; the table carries
	// them itself, so WriteFiles alone (as a notebook calls it) writes what
	// reproduce writes.
	t.Abbreviations = []report.Abbreviation{{Full: "selected hybrid", Short: "Hybrid"}}
	for _, r := range retrieval.Singles() {
		t.Abbreviations = append(t.Abbreviations, report.Abbreviation{Full: r.Name(), Short: r.Short()})
	}
	for _, m := range answerMetricOrder {
		t.Abbreviations = append(t.Abbreviations, report.Abbreviation{Full: answerMetricLabels[m], Short: answerMetricShort[m]})
	}
	return t
}

// answerMetricShort are the LaTeX labels of the metrics.
var answerMetricShort = map[string]string{
	answereval.InReach:              "Gold@k",
	answereval.CitationPrecision:    "CitP",
	answereval.CitationRecall:       "CitR",
	answereval.TokenF1:              "F1",
	answereval.ExactMatch:           "EM",
	answereval.Abstention:           "Abst",
	answereval.AbstentionOutOfReach: "Abst-out",
	answereval.AbstentionInReach:    "Abst-in",
}

func runs0(runs []answereval.Run) answereval.Run {
	if len(runs) == 0 {
		return answereval.Run{F1Tokenizer: answereval.DefaultTokenizer}
	}
	return runs[0]
}

func withCI(iv answereval.Interval) string {
	if iv.N == 0 || math.IsNaN(iv.Mean) {
		return "–"
	}
	return report.F3(iv.Mean) + " " + report.CI3(iv.Lo, iv.Hi)
}

// AnswersFigure draws, for each question type (overall first) and run, the
// share of questions whose primary gold was supplied (gold in top k, the
// ceiling of attribution) above the citation recall the answers reach, both
// with their 95% bootstrap intervals.
func AnswersFigure(runs []answereval.Run) (*plot.Plot, error) {
	var items []report.LabeledCI
	for _, typ := range append([]string{answereval.AllTypes}, questions.Types...) {
		for _, run := range runs {
			for _, g := range run.Groups {
				if g.Name != typ {
					continue
				}
				name := typ
				if typ == answereval.AllTypes {
					name = "overall"
				}
				for _, m := range []struct{ metric, label string }{{answereval.InReach, "gold in top k"}, {answereval.CitationRecall, "citation recall"}} {
					iv := g.Metrics[m.metric]
					items = append(items, report.LabeledCI{Label: name + " · " + run.Label + " · " + m.label, Value: iv.Mean, Lo: iv.Lo, Hi: iv.Hi})
				}
			}
		}
	}
	return report.PointsWithCI("Extractive answers: primary gold supplied vs cited (95% CI)", "share of questions / citation recall", items)
}
