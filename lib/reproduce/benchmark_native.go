package reproduce

import (
	"fmt"
	"os"
	"slices"
	"strconv"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/report"
)

// BenchmarkNativeSlug names the table of benchmark-native metrics.
const BenchmarkNativeSlug = "native_metrics"

// NativeTable scores the single retrievers and the selected hybrid with
// LongMemEval's native metrics of lib/metrics (recall_any, recall_all and
// ndcg_any) at the session granularity: a session is the 180-minute session
// of a chunk's first message (chunking.SessionBounds), ranked by its best
// chunk. Evidence sessions are those of the messages evidence.jsonl resolves
// to (gold.Resolve); a question counts when it has primary gold in the
// protocol's evaluation. Values are macro means over those questions. The
// turn unit is not derived from chunks here: units_recall runs it as its own
// corpus (one document per turn).
func NativeTable(s *Study) (report.Table, error) {
	_, sessionOf, evidence, err := nativeUnits(s)
	if err != nil {
		return report.Table{}, err
	}
	singles, err := s.Singles()
	if err != nil {
		return report.Table{}, err
	}
	sel, cfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	sessionsOf := map[string][]string{}
	for _, c := range s.Chunks {
		sessionsOf[c.ID] = []string{sessionOf[c.MessageIDs[0]]}
	}
	qids := sel.Result.QIDs
	goldSessions := map[string][]string{}
	for _, q := range qids {
		for _, m := range evidence[q] {
			if !slices.Contains(goldSessions[q], sessionOf[m]) {
				goldSessions[q] = append(goldSessions[q], sessionOf[m])
			}
		}
	}
	scores := beyond.NativeScores(append(slices.Clone(singles), sel), qids, sessionsOf, goldSessions)
	t := report.Table{Slug: BenchmarkNativeSlug, Caption: "Benchmark-native retrieval metrics beside the paper's",
		Columns: []string{"Retriever", "Granularity"}, Align: []report.Alignment{report.AlignLeft, report.AlignLeft}}
	for _, k := range beyond.NativeCutoffs {
		t.Columns = append(t.Columns, fmt.Sprintf("recall_any@%d", k), fmt.Sprintf("recall_all@%d", k), fmt.Sprintf("ndcg_any@%d", k))
		t.Align = append(t.Align, report.AlignRight, report.AlignRight, report.AlignRight)
	}
	for i, sc := range scores {
		name := sc.Name
		if i == len(scores)-1 {
			name = "selected " + cfg.Name
		}
		row := []string{name, "session"}
		for j := range beyond.NativeCutoffs {
			row = append(row, report.F3(sc.RecallAny[j]), report.F3(sc.RecallAll[j]), report.F3(sc.NDCGAny[j]))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = []string{
		fmt.Sprintf("%d questions with primary gold. recall_any, recall_all and ndcg_any follow LongMemEval's src/retrieval/eval_utils.py (Wu et al., ICLR 2025) on a ranking of sessions built from linemem's chunk ranking (metrics.UnitRanking): a session is ranked by its best chunk; k counts sessions.", len(qids)),
		"Differences from the published settings: LongMemEval ranks sessions or user turns of one question's own haystack directly; here the retrieval unit is linemem's chunk (a session cut into 42-message windows under a 5,000-character limit), the pooled corpus holds every user's history, and vectors come from the local LSA embedder, not a neural model. The turn unit (one document per dialogue turn, LoCoMo's own) is in units_recall, where it is run as its own corpus.",
	}
	return t, nil
}

// nativeUnits returns, from the stored messages and evidence.jsonl, each
// chunk's turns (message IDs), each message's session ("source#N", N the
// 180-minute session index within the source) and each question's evidence
// turns.
func nativeUnits(s *Study) (map[string][]string, map[string]string, map[string][]string, error) {
	turnsOf := make(map[string][]string, len(s.Chunks))
	for _, c := range s.Chunks {
		turnsOf[c.ID] = c.MessageIDs
	}
	sources, err := s.Store.Sources()
	if err != nil {
		return nil, nil, nil, err
	}
	sessionOf := map[string]string{}
	var msgs []chat.Message
	for _, src := range sources {
		ms, err := s.Store.Messages(src.Name)
		if err != nil {
			return nil, nil, nil, err
		}
		sorted := chunking.Sorted(ms)
		for n, b := range chunking.SessionBounds(sorted, s.Opts.Chunking.GapMinutes) {
			for _, m := range sorted[b[0]:b[1]] {
				sessionOf[m.ID] = src.Name + "#" + strconv.Itoa(n)
			}
		}
		msgs = append(msgs, ms...)
	}
	path := s.data.path(EvidenceFile)
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w (the native metrics need the evidence turns)", err)
	}
	defer f.Close()
	ev, err := gold.ReadEvidence(path, f)
	if err != nil {
		return nil, nil, nil, err
	}
	_, rep := gold.Resolve(ev, msgs, s.Chunks)
	evidence := map[string][]string{}
	for _, it := range rep.Items {
		if it.MessageID != "" && it.Item.IsAnswer() && !slices.Contains(evidence[it.QID], it.MessageID) {
			evidence[it.QID] = append(evidence[it.QID], it.MessageID)
		}
	}
	return turnsOf, sessionOf, evidence, nil
}

// nativeArtefacts are what WriteNative writes: the table of
// benchmark-native metrics.
var nativeArtefacts = []runArtefact[*Study]{{BenchmarkNativeSlug, func(s *Study) (Output, error) {
	t, err := NativeTable(s)
	return Output{Table: &t}, err
}}}

// WriteNative writes NativeTable into outDir.
func WriteNative(s *Study, outDir string) ([]string, error) {
	width, height := s.Opts.FigureSize()
	return writeRun(s, nativeArtefacts, outDir, width, height)
}
