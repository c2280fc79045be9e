package reproduce

import (
	"strconv"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/tokenize"
)

// Tokenizers: BM25 under each tokenizer of tokenize.ReproduceNames.
var (
	tokenizersTableArtefact  = tableArtefact(TokenizersSlug, NeedsSingles, false, tokenizerTable)
	tokenizersFigureArtefact = withMetrics(figureArtefact(TokenizersFigureSlug, NeedsSingles, false, tokenizerFigure), metrics.Recall5)
)

// compareTokenizers is beyond.CompareTokenizers over the Study's corpus,
// reusing the single-retriever runs of Table 3, once.
func compareTokenizers(s *Study) (*beyond.TokenizerComparison, error) {
	return cached(s, "tokenizers", func() (*beyond.TokenizerComparison, error) {
		return beyond.CompareTokenizers(s.Outcome, retrieval.Corpus{Chunks: s.Chunks, Summaries: s.Summaries})
	})
}

// tokenizerTable lays beyond.CompareTokenizers out as TokenizersSlug: one
// row per retriever and tokenizer, with intervals and the paired difference
// from the paper's tokenizer.
func tokenizerTable(s *Study) (report.Table, error) {
	c, err := compareTokenizers(s)
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Slug: TokenizersSlug, Caption: "BM25 by tokenizer on each representation",
		Columns: append(append([]string{"Retriever", "Tokenizer"}, ciColumns(s.Protocol)...), "Δ"+selectionLabel(s)+" vs "+tokenize.Default+" ("+levelWords(s.Protocol)+" CI)"),
		Notes: []string{
			tokenize.Default + " is the paper's regular-expression tokenizer (§5.1); kagome keeps content words in base form (IPA dictionary); char-bigram indexes overlapping character 2-grams after NFKC. BM25 k1 = " + strconv.FormatFloat(c.K1, 'g', -1, 64) + ", b = " + strconv.FormatFloat(c.B, 'g', -1, 64) + " for all three.",
			bootstrapNote(s) + " Δ: paired bootstrap difference from the same representation under " + tokenize.Default + ", on the same resamples.",
		}}
	for _, r := range c.Rows {
		t.Rows = append(t.Rows, append(append([]string{r.Retriever, r.Tokenizer}, metricCells(r.Eval, s.Protocol)...), diffCell(r.Diff)))
	}
	return t, nil
}

// tokenizerFigure plots Recall@5 with its interval for every row of
// beyond.CompareTokenizers, in row order.
func tokenizerFigure(s *Study) (Figure, error) {
	c, err := compareTokenizers(s)
	if err != nil {
		return Figure{}, err
	}
	items := make([]report.LabeledCI, len(c.Rows))
	for i, r := range c.Rows {
		iv := r.Eval.CI[metrics.Recall5]
		items[i] = report.LabeledCI{Label: r.Retriever + " · " + r.Tokenizer, Value: iv.Mean, Lo: iv.Lo, Hi: iv.Hi}
	}
	p, err := report.PointsWithCI("BM25 Recall@5 by representation and tokenizer (95% CI)", "Recall@5", items)
	return Figure{Slug: TokenizersFigureSlug, Plot: p, Notes: []string{"Rows: retriever · tokenizer; " + tokenize.Default + " is the paper's tokenizer."}}, err
}
