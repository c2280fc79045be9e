package memory

import (
	"sort"
	"strings"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/trec"
)

// DefaultPassageWeight is λ, the weight of a window's best passage in its
// everyday score (see Rerank); 0 ranks by BM25 alone. Chosen by
// measurement on the development sets (docs/everyday-search.md, "Ranking
// by the best passage"), the weight with the best mean share of questions
// whose first result shows the answer line:
//
//	linemem analyzers everyday --passage-weights 0,0.25,0.5 \
//	    --corpus mixed=testdata/mixed --corpus synthetic=data/synthetic \
//	    --corpus locomo=build/datasets/locomo
//
// With the character-bigram analyzer λ = 0.5 was best (mean 75.2% against
// 74.2% for BM25 alone); with the kagome-based analyzer the search ships,
// BM25 alone is: λ = 0 shows the answer line first for 88.9% (mixed),
// 53.0% (synthetic) and 69.7% (LoCoMo) of the questions, λ = 0.5 for
// 83.3%, 52.0% and 69.4%, at twice the search's CPU. The re-ranking stays
// measurable (memory.Options.PassageWeight, --passage-weights).
const DefaultPassageWeight = 0.0

// PassageDepth is how many windows at the head of a BM25 ranking are scored
// again by their best passage; the rest keep their order after them.
const PassageDepth = 50

// PassageSpan is how many lines on each side of a line belong to its
// passage: the line, the one before it and the reply after it.
const PassageSpan = 1

// PassageIDF gives the IDF of a term over the index the windows were ranked
// by.
type PassageIDF func(term string) float64

// IndexIDF is PassageIDF over a BM25 index: idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)).
func IndexIDF(ix *bm25.Index) PassageIDF {
	return func(t string) float64 { return bm25.IDF(ix.Len(), ix.DocFreq(t)) }
}

// PassageScore is the share of the question held by the best passage of a
// window's text (one line per message, as raw_text renders them; each
// line's date, time and sender are left out): for the question's distinct
// terms Q under tok,
//
//	P = max_i Σ_{t ∈ Q ∩ T(lines i−s … i+s)} idf(t) / Σ_{t ∈ Q} idf(t),  s = PassageSpan,
//
// in [0, 1]; 0 for a question without terms or an empty text. A 42-message
// window that holds the question's words once, in one exchange, scores as
// high as a 3-message one (Callan, SIGIR 1994: passages as bounded windows
// of text; Dai & Callan, SIGIR 2019: a document scored by its best passage).
func PassageScore(tok tokenize.Tokenizer, idf PassageIDF, question []string, text string) float64 {
	q := map[string]float64{}
	total := 0.0
	for _, t := range question {
		if _, dup := q[t]; !dup {
			q[t] = idf(t)
			total += q[t]
		}
	}
	if total == 0 || text == "" {
		return 0
	}
	lines := strings.Split(text, "\n")
	held := make([]map[string]bool, len(lines))
	for i, l := range lines {
		for _, t := range tok.Tokens(body(l)) {
			if _, ok := q[t]; ok {
				if held[i] == nil {
					held[i] = map[string]bool{}
				}
				held[i][t] = true
			}
		}
	}
	best := 0.0
	for i := range lines {
		in := map[string]bool{}
		for j := max(0, i-PassageSpan); j <= min(len(lines)-1, i+PassageSpan); j++ {
			for t := range held[j] {
				in[t] = true
			}
		}
		s := 0.0
		for _, t := range sortedKeys(in) {
			s += q[t]
		}
		best = max(best, s/total)
	}
	return best
}

// Rerank scores the first PassageDepth hits again, each by
//
//	S(w) = (1 − λ) · B(w) / B_max + λ · P(w),
//
// B its BM25 score, B_max the best of them, P its PassageScore (passage[i]
// for hits[i]), and sorts them by S (ties: the BM25 order); the hits after
// them keep their order and are given scores below every reranked one
// (S − 1 scaled into (−1, 0]) so the list stays sorted. λ = 0 keeps the BM25
// order. hits is not changed.
func Rerank(hits []trec.Hit, passage []float64, lambda float64) []trec.Hit {
	out := append([]trec.Hit(nil), hits...)
	n := min(len(out), PassageDepth, len(passage))
	if n == 0 {
		return out
	}
	bmax := out[0].Score
	for _, h := range out[:n] {
		bmax = max(bmax, h.Score)
	}
	for i := range out[:n] {
		b := 0.0
		if bmax > 0 {
			b = out[i].Score / bmax
		}
		out[i].Score = (1-lambda)*b + lambda*passage[i]
	}
	sort.SliceStable(out[:n], func(i, j int) bool { return out[i].Score > out[j].Score })
	for i := n; i < len(out); i++ {
		b := 0.0
		if bmax > 0 {
			b = out[i].Score / bmax
		}
		out[i].Score = (1-lambda)*b - 1
	}
	return out
}

// body is a raw_text line without its "{date} {HH:MM} {sender}: " head
// (spec §5): the message as written. A line without such a head (the next
// line of a multi-line message) is all body.
func body(line string) string {
	if len(line) < len("2006-01-02 15:04 ") || line[4] != '-' || line[7] != '-' || line[10] != ' ' || line[13] != ':' && line[13] != '-' {
		return line
	}
	if i := strings.Index(line[len("2006-01-02 15:04 "):], ": "); i >= 0 {
		return line[len("2006-01-02 15:04 ")+i+2:]
	}
	return line
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
