package reproduce

import (
	"fmt"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/report"
)

// losslessArtefact compares the paper's chunks with lossless chunks.
var losslessArtefact = tableArtefact(LosslessSlug, NeedsMessages|NeedsEvidence, false, losslessTable)

// losslessTable runs the paper's protocol on the paper's chunks and on
// lossless chunks (chunking.Options.Lossless), gold resolved from
// evidence.jsonl over each, and compares the selection metric (the paper's
// Recall@5) over all questions, a
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
	qrels, rep, err := s.ResolvedGold()
	if err != nil {
		return report.Table{}, err
	}
	var runs [2]*beyond.Protocol
	for i, in := range []beyond.ProtocolInput{
		{Label: "paper (trimming)", Chunks: s.Chunks, Summaries: s.Summaries, Gold: &rep, Qrels: qrels, Vectors: s.Store, Model: s.EmbedModel},
		{Label: "lossless", Chunks: lossless, Summaries: sums, Messages: msgs, Evidence: ev},
	} {
		in.Questions, in.Protocol = s.Questions, s.Protocol
		if runs[i], err = beyond.RunProtocol(in); err != nil {
			return report.Table{}, err
		}
	}
	paper, loss := runs[0], runs[1]
	ix := beyond.NewIndices(s.Protocol, len(s.Questions))
	label, level := selectionLabel(s), levelWords(s.Protocol)
	t := report.Table{Slug: LosslessSlug, Caption: "The paper's protocol on trimmed and on lossless chunks",
		Columns: []string{"Retriever", label + " paper (" + level + " CI)", label + " lossless (" + level + " CI)", "Δ lossless − paper (" + level + " CI)", "p", "Holm p"},
		// Many interval columns fit a one-column page only with the metric name short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}},
		Notes: []string{
			fmt.Sprintf("Chunks: %d (paper) and %d (lossless; %d without a shipped summary take that of the paper chunk sharing most of their messages). Gold resolved from evidence.jsonl over each: %d and %d evidence items in no chunk; %d and %d questions without primary gold.",
				len(paper.Chunks), len(loss.Chunks), borrowed, len(paper.Gold.Unchunked), len(loss.Gold.Unchunked), len(paper.Gold.NoPrimary), len(loss.Gold.NoPrimary)),
			fmt.Sprintf("%s over all %d questions, a question without primary gold counting 0. Each chunking runs the whole protocol: vectors (the study's for the paper's chunks, the local LSA embedder fitted on the lossless chunks), single retrievers, %d-configuration sweep and selection (selected: %s and %s). Δ: paired over questions; %s. %s",
				label, len(s.Questions), len(s.Protocol.Pairings)*len(s.Protocol.Betas), paper.Selected.Name, loss.Selected.Name, bootstrapWords(s), holmNote),
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
		a, b := beyond.AllQuestions(p[0], s.Questions, s.Protocol.SelectionMetric), beyond.AllQuestions(p[1], s.Questions, s.Protocol.SelectionMetric)
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
