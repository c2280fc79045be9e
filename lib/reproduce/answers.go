package reproduce

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/plot"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/answereval"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/tokenize"
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
		runs, err := Answers(s)
		if err != nil {
			return report.Table{}, err
		}
		return AnswersTable(runs, s.Protocol.B, s.Protocol.Seed), nil
	})
	answersFigureArtefact = figureArtefact(AnswersFigureSlug, NeedsSweep|NeedsAnswers, false, func(s *Study) (Figure, error) {
		runs, err := Answers(s)
		if err != nil {
			return Figure{}, err
		}
		p, err := AnswersFigure(runs)
		return Figure{Slug: AnswersFigureSlug, Plot: p, Notes: []string{"Rows: question type · retriever · quantity; gold in top k bounds the citation recall an answerer can reach from the chunks supplied."}}, err
	})
)

// AnswerRun is one answerer over one retriever's top k, scored.
type AnswerRun struct {
	Label         string // how the table names the retriever ("embedding_text_bm25", "selected hybrid")
	Retriever     string
	Provider      string
	Model         string
	PromptVersion string // "" for the extractive baseline
	K             int
	F1Tokenizer   string
	Scores        *answereval.Scores
	Groups        []answereval.Group // overall, then by question type
}

// ScoreAnswers scores items against qrels and summarises them with b
// resamples and seed, under the run's labels.
func ScoreAnswers(label string, k int, items []answereval.Item, qrels map[string]map[string]int, tok tokenize.Tokenizer, b int, seed uint64) AnswerRun {
	run := AnswerRun{Label: label, K: k, F1Tokenizer: tok.Name()}
	if len(items) > 0 {
		a := items[0].Answer
		run.Retriever, run.Provider, run.Model, run.PromptVersion = a.Retriever, a.Provider, a.Model, a.PromptVersion
	}
	run.Scores = answereval.Score(items, qrels, tok)
	run.Groups = answereval.Summarize(run.Scores, questions.Types, b, seed, bootstrap.DefaultLevel)
	return run
}

// Answers answers every question with the extractive baseline from the top
// answer.DefaultK chunks of two retrievers — embedding_text_bm25, the
// paper's best single retriever and the everyday default, and the selected
// hybrid — retrieved through lib/memory under the study's tokenizer and
// vectors, and scores them (lib/answereval) with the study's B and seed.
// lib/memory is the everyday search, not the protocol: its fallback for a
// question whose BM25 terms match nothing can supply chunks the protocol's
// run lacks.
func Answers(s *Study) ([]AnswerRun, error) {
	return cached(s, "answers", func() ([]AnswerRun, error) { return answers(s) })
}

func answers(s *Study) ([]AnswerRun, error) {
	_, cfg, err := s.Selected()
	if err != nil {
		return nil, err
	}
	tok, err := tokenize.New(answer.DefaultExtractiveTokenizer)
	if err != nil {
		return nil, err
	}
	f1tok, err := tokenize.New(answereval.DefaultTokenizer)
	if err != nil {
		return nil, err
	}
	ex := answer.NewExtractive(tok)
	var runs []AnswerRun
	for _, r := range []struct{ label, name string }{{"embedding_text_bm25", "embedding_text_bm25"}, {"selected hybrid", cfg.Name}} {
		mem, err := memory.Open(s.Store, memory.Options{Retriever: r.name, Tokenizer: s.Protocol.Tokenizer, EmbedModel: s.EmbedModel})
		if err != nil {
			return nil, err
		}
		items, err := answereval.Answer(context.Background(), mem, ex, s.Questions, answer.DefaultK, nil)
		if err != nil {
			return nil, err
		}
		runs = append(runs, ScoreAnswers(r.label, answer.DefaultK, items, s.Qrels, f1tok, s.Protocol.B, s.Protocol.Seed))
	}
	return runs, nil
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
func AnswersTable(runs []AnswerRun, b int, seed uint64) report.Table {
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

func runs0(runs []AnswerRun) AnswerRun {
	if len(runs) == 0 {
		return AnswerRun{F1Tokenizer: answereval.DefaultTokenizer}
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
func AnswersFigure(runs []AnswerRun) (*plot.Plot, error) {
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

// answersParameters records the settings of Answers for the manifest.
func answersParameters() map[string]any {
	return map[string]any{
		"k":                    answer.DefaultK,
		"retrievers":           []string{"embedding_text_bm25", "selected hybrid"},
		"answerer":             answer.ExtractiveName,
		"extractive_tokenizer": answer.DefaultExtractiveTokenizer,
		"f1_tokenizer":         answereval.DefaultTokenizer,
		"metrics":              answereval.Metrics,
	}
}
