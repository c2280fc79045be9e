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
	"github.com/linemem/linemem/lib/tokenize"
)

// Slugs of the evidence-attributed answers (spec §13): the table, and the
// figure of citation recall against the retrieval ceiling.
const (
	AnswersSlug       = "beyond_answers"
	AnswersFigureSlug = "beyond_answers_citation_recall"
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
func (s *Study) Answers() ([]AnswerRun, error) {
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
		mem, err := memory.Open(s.Store, memory.Options{Retriever: r.name, Tokenizer: s.Opts.Tokenizer, EmbedModel: s.EmbedModel})
		if err != nil {
			return nil, err
		}
		items, err := answereval.Answer(context.Background(), mem, ex, s.Questions, answer.DefaultK, nil)
		if err != nil {
			return nil, err
		}
		runs = append(runs, ScoreAnswers(r.label, answer.DefaultK, items, s.Qrels, f1tok, s.Opts.B, s.Opts.Seed))
	}
	return runs, nil
}

// AnswersTable lays runs out by question type (overall first), then run.
// Cells hold the macro mean and, for the three quality metrics, its 95%
// percentile-bootstrap interval; no question or answer text.
func AnswersTable(runs []AnswerRun, b int, seed uint64) report.Table {
	t := report.Table{
		Slug:    AnswersSlug,
		Caption: "Evidence-attributed answers from the top-k chunks, by question type",
		Columns: []string{"Question type", "Questions", "Retriever", "Answerer", "Gold in top k", "Citation precision (95% CI)", "Citation recall (95% CI)", "Token F1 (95% CI)", "Exact match", "Abstained", "Abstained, gold out of reach"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignRight, report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight},
	}
	order := []string{answereval.AllTypes}
	order = append(order, questions.Types...)
	var notes []string
	for _, typ := range order {
		for _, run := range runs {
			for _, g := range run.Groups {
				if g.Name != typ {
					continue
				}
				name := typ
				if typ == answereval.AllTypes {
					name = "overall"
				}
				m := g.Metrics
				t.Rows = append(t.Rows, []string{name, fmt.Sprint(g.Questions), run.Label, run.Provider,
					mean(m[answereval.InReach]), withCI(m[answereval.CitationPrecision]), withCI(m[answereval.CitationRecall]), withCI(m[answereval.TokenF1]),
					mean(m[answereval.ExactMatch]), mean(m[answereval.Abstention]), ofN(m[answereval.AbstentionOutOfReach])})
			}
		}
	}
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
	notes = append(notes,
		"Citation precision: cited chunks with rel ≥ 1 over cited chunks, on answers that cite. Citation recall: primary gold cited over primary gold. "+
			"Token F1 on "+runs0(runs).F1Tokenizer+" tokens of the answer (citations removed) against the reference answer; exact match after NFKC, lowercasing and removing spaces, punctuation and symbols; an abstention scores 0 on both. "+
			"Gold in top k: share of questions with a primary-gold chunk among the chunks supplied. Abstained, gold out of reach: share of abstentions where no primary gold was supplied (abstaining is right there), with the number of such questions.",
		fmt.Sprintf("Macro means over the questions where a metric is defined; percentile bootstrap, B = %d, seed = %d, each mean resampling its own questions. "+
			"Reference answers of the synthetic corpus are the planted value (named_entity) or the planted episodes' descriptions (contextual, aggregate), so token F1 of a chat-line answer is bounded by the length mismatch and exact match is near 0 by construction.", b, seed))
	t.Notes = notes
	return t
}

func runs0(runs []AnswerRun) AnswerRun {
	if len(runs) == 0 {
		return AnswerRun{F1Tokenizer: answereval.DefaultTokenizer}
	}
	return runs[0]
}

func mean(iv answereval.Interval) string {
	if iv.N == 0 || math.IsNaN(iv.Mean) {
		return "–"
	}
	return report.F3(iv.Mean)
}

func withCI(iv answereval.Interval) string {
	if iv.N == 0 || math.IsNaN(iv.Mean) {
		return "–"
	}
	return report.F3(iv.Mean) + " " + report.CI3(iv.Lo, iv.Hi)
}

func ofN(iv answereval.Interval) string {
	if iv.N == 0 {
		return "– (0)"
	}
	return fmt.Sprintf("%s (%d)", report.F3(iv.Mean), iv.N)
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

// writeAnswers writes AnswersTable and AnswersFigure of Answers into outDir
// after the paths already written.
func (s *Study) writeAnswers(outDir string, written []string) ([]string, error) {
	runs, err := s.Answers()
	if err != nil {
		return written, fmt.Errorf("%s: %w", AnswersSlug, err)
	}
	paths, err := AnswersTable(runs, s.Opts.B, s.Opts.Seed).WriteFiles(outDir)
	written = append(written, paths...)
	if err != nil {
		return written, fmt.Errorf("%s: %w", AnswersSlug, err)
	}
	p, err := AnswersFigure(runs)
	if err != nil {
		return written, fmt.Errorf("%s: %w", AnswersFigureSlug, err)
	}
	paths, err = report.SaveFigure(p, outDir, AnswersFigureSlug, report.DefaultWidth, report.DefaultHeight)
	written = append(written, paths...)
	if err != nil {
		return written, fmt.Errorf("%s: %w", AnswersFigureSlug, err)
	}
	return written, nil
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
