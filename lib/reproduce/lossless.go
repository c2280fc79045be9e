package reproduce

import (
	"fmt"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
)

// losslessArtefact compares the paper's chunks with lossless chunks.
var losslessArtefact = tableArtefact(LosslessSlug, NeedsMessages|NeedsEvidence, false, losslessTable)

// losslessTable runs the paper's protocol on the paper's chunks and on
// lossless chunks (chunking.Options.Lossless), gold resolved from
// evidence.jsonl over each, and compares Recall@5 over all questions, a
// question without primary gold in a chunking counting 0 (LosslessSlug).
func losslessTable(s *Study) (report.Table, error) {
	ev, _, err := s.Evidence()
	if err != nil {
		return report.Table{}, err
	}
	msgs, err := s.Messages()
	if err != nil {
		return report.Table{}, err
	}
	opts := s.Opts.Chunking
	opts.Lossless = true
	lossless, err := beyond.ChunkAll(msgs, opts)
	if err != nil {
		return report.Table{}, err
	}
	sums, borrowed := beyond.BorrowSummaries(lossless, s.Chunks, s.Summaries)
	var runs [2]*beyond.Protocol
	for i, c := range []struct {
		label  string
		chunks []chat.Chunk
		sums   map[string]string
		vs     retrieval.VectorSource
	}{{"paper (trimming)", s.Chunks, s.Summaries, s.Store}, {"lossless", lossless, sums, nil}} {
		if runs[i], err = beyond.RunProtocol(beyond.ProtocolInput{Label: c.label, Chunks: c.chunks, Summaries: c.sums, Messages: msgs, Evidence: ev, Questions: s.Questions, Protocol: s.Protocol, Vectors: c.vs, Model: s.EmbedModel}); err != nil {
			return report.Table{}, err
		}
	}
	paper, loss := runs[0], runs[1]
	ix := beyond.NewIndices(s.Protocol, len(s.Questions))
	t := report.Table{Slug: LosslessSlug, Caption: "The paper's protocol on trimmed and on lossless chunks",
		Columns: []string{"Retriever", "Recall@5 paper (95% CI)", "Recall@5 lossless (95% CI)", "Δ lossless − paper (95% CI)", "p", "Holm p"},
		// Many interval columns fit a one-column page only with the metric name short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}},
		Notes: []string{
			fmt.Sprintf("Chunks: %d (paper) and %d (lossless; %d without a shipped summary take that of the paper chunk sharing most of their messages). Gold resolved from evidence.jsonl over each: %d and %d evidence items in no chunk; %d and %d questions without primary gold.",
				len(paper.Chunks), len(loss.Chunks), borrowed, len(paper.Gold.Unchunked), len(loss.Gold.Unchunked), len(paper.Gold.NoPrimary), len(loss.Gold.NoPrimary)),
			fmt.Sprintf("Recall@5 over all %d questions, a question without primary gold counting 0. Each chunking runs the whole protocol: vectors (the study's for the paper's chunks, the local LSA embedder fitted on the lossless chunks), single retrievers, 126-configuration sweep and selection (selected: %s and %s). Δ: paired over questions; %s. %s",
				len(s.Questions), paper.Selected.Name, loss.Selected.Name, bootstrapWords(s), holmNote),
		}}
	pairs := [][2]*experiment.Evaluation{}
	labels := []string{}
	for i := range paper.Singles {
		pairs = append(pairs, [2]*experiment.Evaluation{paper.Singles[i], loss.Singles[i]})
		labels = append(labels, paper.Singles[i].Name)
	}
	pairs = append(pairs, [2]*experiment.Evaluation{paper.Selected, loss.Selected})
	labels = append(labels, "selected hybrid")
	var diffs []*beyond.Diff
	var cells [][2]experiment.Interval
	for _, p := range pairs {
		a, b := beyond.AllQuestions(p[0], s.Questions, metrics.Recall5), beyond.AllQuestions(p[1], s.Questions, metrics.Recall5)
		d := beyond.PairedDiff(ix, b, a, s.Protocol.Level)
		diffs = append(diffs, &d)
		cells = append(cells, [2]experiment.Interval{meanInterval(ix, a, s.Protocol.Level), meanInterval(ix, b, s.Protocol.Level)})
	}
	beyond.HolmAll(diffs)
	for i, l := range labels {
		d, p, h := dCell(diffs[i])
		t.Rows = append(t.Rows, []string{l, ivCell(cells[i][0]), ivCell(cells[i][1]), d, p, h})
	}
	return t, nil
}
