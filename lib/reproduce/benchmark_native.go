package reproduce

import (
	"fmt"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/report"
)

// BenchmarkNativeSlug names the table of benchmark-native metrics.
const BenchmarkNativeSlug = "native_metrics"

// NativeTable lays out LongMemEval's native metrics of lib/metrics
// (recall_any, recall_all and ndcg_any) of the single retrievers and the
// selected hybrid at the session granularity, as
// beyond.SessionNativeScores computes them: a session is the 180-minute
// session of a chunk's first message, ranked by its best chunk; evidence
// sessions are those of the messages evidence.jsonl resolves to
// (Study.ResolvedGold); a question counts when it has primary gold in the
// protocol's evaluation. Values are macro means over those questions. The
// turn unit is not derived from chunks here: units_recall runs it as its own
// corpus (one document per turn).
func NativeTable(s *Study) (report.Table, error) {
	msgs, err := s.Messages()
	if err != nil {
		return report.Table{}, err
	}
	_, resolved, err := s.ResolvedGold()
	if err != nil {
		return report.Table{}, fmt.Errorf("%w (the native metrics need the evidence turns)", err)
	}
	native, err := beyond.SessionNativeScores(s.Outcome, s.Chunks, msgs, resolved, s.Opts.Chunking.GapMinutes)
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Slug: BenchmarkNativeSlug, Caption: "Benchmark-native retrieval metrics beside the paper's",
		Columns: []string{"Retriever", "Granularity"}, Align: []report.Alignment{report.AlignLeft, report.AlignLeft}}
	for _, k := range beyond.NativeCutoffs {
		t.Columns = append(t.Columns, fmt.Sprintf("recall_any@%d", k), fmt.Sprintf("recall_all@%d", k), fmt.Sprintf("ndcg_any@%d", k))
		t.Align = append(t.Align, report.AlignRight, report.AlignRight, report.AlignRight)
	}
	for i, sc := range native.Scores {
		name := sc.Name
		if i == len(native.Scores)-1 {
			name = "selected " + native.Selected.Name
		}
		row := []string{name, "session"}
		for j := range beyond.NativeCutoffs {
			row = append(row, report.F3(sc.RecallAny[j]), report.F3(sc.RecallAll[j]), report.F3(sc.NDCGAny[j]))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = []string{
		fmt.Sprintf("%d questions with primary gold. recall_any, recall_all and ndcg_any follow LongMemEval's src/retrieval/eval_utils.py (Wu et al., ICLR 2025) on a ranking of sessions built from linemem's chunk ranking (metrics.UnitRanking): a session is ranked by its best chunk; k counts sessions.", len(native.QIDs)),
		"Differences from the published settings: LongMemEval ranks sessions or user turns of one question's own haystack directly; here the retrieval unit is linemem's chunk (a session cut into 42-message windows under a 5,000-character limit), the pooled corpus holds every user's history, and vectors come from the local LSA embedder, not a neural model. The turn unit (one document per dialogue turn, LoCoMo's own) is in units_recall, where it is run as its own corpus.",
	}
	return t, nil
}

// nativeArtefacts are what WriteNative writes: the table of
// benchmark-native metrics.
var nativeArtefacts = []runArtefact[*Study]{{BenchmarkNativeSlug, func(s *Study) (Output, error) {
	t, err := NativeTable(s)
	return Output{Table: &t}, err
}}}

// WriteNative writes NativeTable into outDir.
func WriteNative(s *Study, outDir string) ([]string, error) {
	width, height := s.Layout.FigureSize()
	return writeRun(s, nativeArtefacts, outDir, width, height)
}
