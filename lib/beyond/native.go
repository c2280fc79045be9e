package beyond

import (
	"slices"
	"strconv"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/metrics"
)

// NativeCutoffs are the cutoffs of the native metrics (LongMemEval reports
// 5 and 10).
var NativeCutoffs = []int{5, 10}

// NativeScore is one evaluation's LongMemEval-native metrics at a unit
// coarser than its documents: for each cutoff k of NativeCutoffs (index i),
// the macro means over the questions of recall_any@k, recall_all@k and
// ndcg_any@k (lib/metrics).
type NativeScore struct {
	Name                          string
	RecallAny, RecallAll, NDCGAny []float64
}

// NativeScores scores the run of each evaluation of evs on qids at the unit
// unitsOf gives each document (a unit ranks at its best document,
// metrics.UnitRanking; k counts units) against goldUnits, each question's
// gold units. Each mean is the sum over qids divided by max(1, len(qids)):
// no question gives 0.
func NativeScores(evs []*experiment.Evaluation, qids []string, unitsOf, goldUnits map[string][]string) []NativeScore {
	n := float64(max(1, len(qids)))
	scores := make([]NativeScore, len(evs))
	for i, ev := range evs {
		sc := NativeScore{Name: ev.Name}
		for _, k := range NativeCutoffs {
			var anyHit, allHit, nd float64
			for _, q := range qids {
				ranked := metrics.UnitRanking(ev.Run[q], unitsOf)
				judged := metrics.UnitJudgments(goldUnits[q])
				anyHit += metrics.RecallAny(ranked, judged, k)
				allHit += metrics.RecallAll(ranked, judged, k)
				nd += metrics.NDCGAny(ranked, judged, k)
			}
			sc.RecallAny = append(sc.RecallAny, anyHit/n)
			sc.RecallAll = append(sc.RecallAll, allHit/n)
			sc.NDCGAny = append(sc.NDCGAny, nd/n)
		}
		scores[i] = sc
	}
	return scores
}

// SessionNative is NativeScores at the session unit of a study's corpus:
// the scores of the single retrievers, then of the selected hybrid (last),
// over the questions of the selected hybrid's evaluation.
type SessionNative struct {
	QIDs     []string
	Scores   []NativeScore
	Selected experiment.Config
}

// SessionNativeScores scores o's single retrievers and selected hybrid with
// NativeScores at the session granularity. A chunk's session is the
// gapMinutes session (chunking.SessionBounds over its source's messages,
// chunking.Sorted) of its first message, named "SOURCE#N" with N the
// session's index within the source; a question's gold sessions are those
// of the messages its answer evidence resolved to (resolved.Items with a
// MessageID and Item.IsAnswer), in evidence order without repeats. The
// questions are those of the selected hybrid's evaluation (primary gold
// under the protocol). msgs are every stored message of chunks' corpus.
func SessionNativeScores(o *experiment.Outcome, chunks []chat.Chunk, msgs []chat.Message, resolved gold.Report, gapMinutes int) (*SessionNative, error) {
	singles, err := o.Singles()
	if err != nil {
		return nil, err
	}
	sel, cfg, err := o.Selected()
	if err != nil {
		return nil, err
	}
	sessionOf := messageSessions(msgs, gapMinutes)
	sessionsOf := make(map[string][]string, len(chunks))
	for _, c := range chunks {
		sessionsOf[c.ID] = []string{sessionOf[c.MessageIDs[0]]}
	}
	evidence := map[string][]string{}
	for _, it := range resolved.Items {
		if it.MessageID != "" && it.Item.IsAnswer() && !slices.Contains(evidence[it.QID], it.MessageID) {
			evidence[it.QID] = append(evidence[it.QID], it.MessageID)
		}
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
	scores := NativeScores(append(slices.Clone(singles), sel), qids, sessionsOf, goldSessions)
	return &SessionNative{QIDs: qids, Scores: scores, Selected: cfg}, nil
}

// messageSessions maps each message ID of msgs to its session, "SOURCE#N":
// the messages of each source in time order (chunking.Sorted) cut by
// chunking.SessionBounds at gapMinutes, N counting from 0 within the source.
func messageSessions(msgs []chat.Message, gapMinutes int) map[string]string {
	var sources []string
	bySource := map[string][]chat.Message{}
	for _, m := range msgs {
		if _, seen := bySource[m.Source]; !seen {
			sources = append(sources, m.Source)
		}
		bySource[m.Source] = append(bySource[m.Source], m)
	}
	sessionOf := make(map[string]string, len(msgs))
	for _, src := range sources {
		sorted := chunking.Sorted(bySource[src])
		for n, b := range chunking.SessionBounds(sorted, gapMinutes) {
			for _, m := range sorted[b[0]:b[1]] {
				sessionOf[m.ID] = src + "#" + strconv.Itoa(n)
			}
		}
	}
	return sessionOf
}
