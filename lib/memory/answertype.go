package memory

import (
	"sort"
	"strings"

	"github.com/linemem/linemem/lib/trec"
)

// DefaultTypeWeight is μ, the weight of the answer-type prior in the
// everyday ranking (TypeRerank); 0 turns it off. Chosen by measurement on
// the development sets (docs/everyday-search.md, "What the question asks
// for, in the ranking"), the weight with the best mean share of questions
// whose first result shows the answer line:
//
//	linemem analyzers everyday --type-weights 0,0.25,0.35,0.5 \
//	    --corpus devblind=testdata/devblind --corpus mixed=testdata/mixed \
//	    --corpus synthetic=data/synthetic --corpus locomo=build/datasets/locomo \
//	    --corpus realpersonachat=build/datasets/realpersonachat
//
// μ = 0 showed it for 51.7% (devblind), 88.9% (mixed), 52.0% (synthetic),
// 70.0% (LoCoMo) and 72.7% (RealPersonaChat), mean 67.1%; μ = 0.25 for
// 56.9%, 88.9%, 52.0%, 69.9%, 72.7% (68.1%); μ = 0.35 for 58.6%, 94.4%,
// 52.0%, 69.9%, 72.7% (69.5%); μ = 0.5 for 58.6%, 94.4%, 52.0%, 69.8%,
// 72.7% (69.5%).
const DefaultTypeWeight = 0.35

// TypeDepth is how many windows at the head of the ranking the answer-type
// prior scores again; the rest keep their order after them.
const TypeDepth = 10

// Typed reports whether the answer-type prior applies to q: it asks for an
// amount (いくら, 何円, how much) or a time of day (何時, なんじ, what time),
// which a chat line writes out (9,800円, 19時). Not to a question for a
// date (いつ, when): in a chat its answer is as often the date the message
// was sent, which every window has (on LoCoMo a prior for every
// when-question moved the answer line out of the first result for 14
// questions and into it for 7); nor where or who, whose carriers (店, 駅,
// さん) are in most windows whatever they are about.
func (q Question) Typed() bool {
	return q.Asks == AsksHowMuch || q.Asks == AsksWhen && q.Clock
}

// TypeRerank scores the first TypeDepth hits again, each by
//
//	S(w) = B(w) + μ · B_max · C(w),
//
// B its score, B_max the best of them, C(w) = 1 when carries[i] (a message
// of window hits[i] carries what the question asks for, beyond what it
// states: Question.CarriedBy) and 0 otherwise, and sorts them by S (ties:
// the order of hits). That is B(w)/B_max + μ·C(w) in the units of B: a
// window that holds what is asked for goes above one that does not when
// its score is at least (1 − μ) of it. The hits after them keep their
// scores and order, below every re-scored one. hits is not changed; bonus
// gives, by chunk ID, what S added to B (μ · B_max, only for the windows
// that carry).
func TypeRerank(hits []trec.Hit, carries []bool, mu float64) (out []trec.Hit, bonus map[string]float64) {
	out = append([]trec.Hit(nil), hits...)
	n := min(len(out), TypeDepth, len(carries))
	if n == 0 || mu <= 0 {
		return out, nil
	}
	bmax := 0.0
	for _, h := range out[:n] {
		bmax = max(bmax, h.Score)
	}
	bonus = map[string]float64{}
	for i := range out[:n] {
		if carries[i] && bmax > 0 {
			out[i].Score += mu * bmax
			bonus[out[i].ChunkID] = mu * bmax
		}
	}
	sort.SliceStable(out[:n], func(i, j int) bool { return out[i].Score > out[j].Score })
	return out, bonus
}

// WindowCarries reports whether a message of a window's raw_text (one line
// per message, as spec §5 renders it; each line's date, time and sender
// left out) carries what q asks for beyond what it states
// (Question.CarriedBy without the chat's senders: a clock time for a
// question for a time of day, not a date such as 12/12).
func WindowCarries(q Question, rawText string) bool {
	for _, line := range strings.Split(rawText, "\n") {
		if q.CarriedBy(body(line), nil) {
			return true
		}
	}
	return false
}
