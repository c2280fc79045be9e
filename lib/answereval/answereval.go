// Package answereval measures answers written by lib/answer against graded
// gold (spec §10 qrels) and short reference answers (spec §13), per question
// and as macro means with percentile-bootstrap intervals (lib/bootstrap),
// overall and by question type.
//
// Per question q, with C the distinct chunks the answer cites, K the chunks
// it was given (the retriever's top k), G1 the chunks with rel ≥ 1 and G2
// those with rel 2 ("primary gold"):
//
//	citation_precision = |C ∩ G1| / |C|          undefined when C = ∅
//	citation_recall    = |C ∩ G2| / |G2|         0 when C = ∅
//	token_f1           = 2·P·R / (P + R), P = m/|a|, R = m/|r|, m = Σ_t min(a_t, r_t)
//	exact_match        = 1 if norm(answer) = norm(reference), else 0
//	abstention         = 1 if the answer abstained, else 0
//	in_reach           = 1 if K ∩ G2 ≠ ∅, else 0
//	abstention_out_of_reach = abstention, on questions with in_reach = 0 only
//	abstention_in_reach     = abstention, on questions with in_reach = 1 only
//
// a and r are the multisets of tokens of the answer (citations removed) and
// of the reference under one stated tokenizer (DefaultTokenizer: kagome,
// content words in base form, NFKC, lowercase); an abstention has no tokens,
// so its F1 is 0; F1 is 0 when m = 0. norm is NFKC, lowercase, citations
// removed and every space, punctuation and symbol character dropped.
// token_f1 and exact_match are undefined without a reference answer. On
// out-of-reach questions the supplied chunks hold no primary gold, so
// abstaining is the right behaviour there and abstention_out_of_reach is its
// rate; abstention_in_reach is the rate of needless abstentions.
//
// As in spec §10, a question whose G2 is empty is excluded from every mean
// and reported. Means are over the questions where a metric is defined; the
// interval of a mean over n such questions uses bootstrap.NewIndices(B, n,
// seed), as lib/bootstrap prescribes for subsets.
//
// Imports: lib/answer, lib/memory, lib/questions, lib/trec, lib/bootstrap,
// lib/tokenize and golang.org/x/text.
package answereval

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/trec"
)

// Metric names, in reporting order.
const (
	CitationPrecision    = "citation_precision"
	CitationRecall       = "citation_recall"
	TokenF1              = "token_f1"
	ExactMatch           = "exact_match"
	Abstention           = "abstention"
	InReach              = "in_reach"
	AbstentionOutOfReach = "abstention_out_of_reach"
	AbstentionInReach    = "abstention_in_reach"
)

// Metrics lists every metric in reporting order.
var Metrics = []string{CitationPrecision, CitationRecall, TokenF1, ExactMatch, Abstention, InReach, AbstentionOutOfReach, AbstentionInReach}

// DefaultTokenizer tokenizes answers and references for token_f1.
const DefaultTokenizer = "kagome"

// AllTypes names the group of every evaluated question.
const AllTypes = "all"

// Item is one answered question.
type Item struct {
	QID       string
	Type      string
	Reference string // "" when the question set gives none
	Answer    answer.Answer
}

// Searcher is what Answer retrieves with; *memory.Memory implements it.
type Searcher interface {
	Search(ctx context.Context, q memory.Query) (memory.Response, error)
}

// Answer retrieves the top k chunks of every question with mem and answers
// it with ans, in question order. progress, when not nil, receives one line
// per question ("answer 3/100 q003").
func Answer(ctx context.Context, mem Searcher, ans answer.Answerer, qs []questions.Question, k int, progress io.Writer) ([]Item, error) {
	items := make([]Item, 0, len(qs))
	for i, q := range qs {
		resp, err := mem.Search(ctx, memory.Query{Text: q.Question, K: k})
		if err != nil {
			return items, fmt.Errorf("%s: %w", q.QID, err)
		}
		a, err := ans.Answer(ctx, q.Question, resp.Results)
		if err != nil {
			return items, fmt.Errorf("%s: %w", q.QID, err)
		}
		a.Retriever = resp.Retriever
		items = append(items, Item{QID: q.QID, Type: q.Type, Reference: q.Answer, Answer: a})
		if progress != nil {
			fmt.Fprintf(progress, "answer %d/%d %s\n", i+1, len(qs), q.QID)
		}
	}
	return items, nil
}

// Scores holds every metric per evaluated question; NaN marks a metric that
// is undefined for that question.
type Scores struct {
	QIDs     []string
	Types    []string
	Values   map[string][]float64 // by metric name, aligned with QIDs
	Excluded []string             // questions without primary gold, in item order
}

// Score computes the per-question metrics of items against qrels, with tok
// for token_f1.
func Score(items []Item, qrels trec.Qrels, tok tokenize.Tokenizer) *Scores {
	s := &Scores{Values: map[string][]float64{}}
	for _, it := range items {
		g := qrels[it.QID]
		g2 := 0
		for _, rel := range g {
			if rel == 2 {
				g2++
			}
		}
		if g2 == 0 {
			s.Excluded = append(s.Excluded, it.QID)
			continue
		}
		s.QIDs = append(s.QIDs, it.QID)
		s.Types = append(s.Types, it.Type)
		v := perQuestion(it, g, g2, tok)
		for _, m := range Metrics {
			s.Values[m] = append(s.Values[m], v[m])
		}
	}
	return s
}

func perQuestion(it Item, g map[string]int, g2 int, tok tokenize.Tokenizer) map[string]float64 {
	nan := math.NaN()
	v := map[string]float64{}
	cited := map[string]bool{}
	for _, c := range it.Answer.Citations {
		cited[c.ChunkID] = true
	}
	hit1, hit2 := 0, 0
	for id := range cited {
		if g[id] >= 1 {
			hit1++
		}
		if g[id] == 2 {
			hit2++
		}
	}
	v[CitationPrecision] = nan
	if len(cited) > 0 {
		v[CitationPrecision] = float64(hit1) / float64(len(cited))
	}
	v[CitationRecall] = float64(hit2) / float64(g2)
	v[TokenF1], v[ExactMatch] = nan, nan
	if strings.TrimSpace(it.Reference) != "" {
		pred := ""
		if !it.Answer.Abstained {
			pred = answer.StripCitations(it.Answer.Text)
		}
		v[TokenF1] = F1(tok.Tokens(pred), tok.Tokens(it.Reference))
		v[ExactMatch] = 0
		if pred != "" && Normalize(pred) == Normalize(it.Reference) {
			v[ExactMatch] = 1
		}
	}
	v[Abstention] = b2f(it.Answer.Abstained)
	reach := false
	for _, id := range it.Answer.Chunks {
		reach = reach || g[id] == 2
	}
	v[InReach] = b2f(reach)
	v[AbstentionOutOfReach], v[AbstentionInReach] = nan, nan
	if reach {
		v[AbstentionInReach] = v[Abstention]
	} else {
		v[AbstentionOutOfReach] = v[Abstention]
	}
	return v
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// F1 is the token F1 of a predicted against a reference token multiset:
// m = Σ_t min(pred_t, ref_t), P = m/|pred|, R = m/|ref|, F1 = 2PR/(P+R);
// 0 when m = 0 (so also when either side is empty).
func F1(pred, ref []string) float64 {
	counts := map[string]int{}
	for _, t := range ref {
		counts[t]++
	}
	m := 0
	for _, t := range pred {
		if counts[t] > 0 {
			counts[t]--
			m++
		}
	}
	if m == 0 {
		return 0
	}
	p, r := float64(m)/float64(len(pred)), float64(m)/float64(len(ref))
	return 2 * p * r / (p + r)
}

// Normalize is the exact-match form of a text: NFKC, lowercase, citations
// removed, spaces, punctuation and symbols dropped.
func Normalize(s string) string {
	s = strings.ToLower(norm.NFKC.String(answer.StripCitations(s)))
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) {
			return -1
		}
		return r
	}, s)
}

// Interval is the mean of one metric over the questions of a group where it
// is defined, with its bootstrap interval.
type Interval struct {
	N      int // questions where the metric is defined
	Mean   float64
	Lo, Hi float64
}

// Group is every metric over one group of questions.
type Group struct {
	Name      string // AllTypes or a question type
	Questions int
	Metrics   map[string]Interval
}

// Summarize returns the group of all evaluated questions, then one group per
// type of types that has questions. b, seed and level are the bootstrap's
// (bootstrap.DefaultB, DefaultSeed, DefaultLevel for the paper's); a metric
// defined on no question of a group has N = 0 and NaN mean and bounds.
func Summarize(s *Scores, types []string, b int, seed uint64, level float64) []Group {
	var groups []Group
	add := func(name string, keep func(i int) bool) {
		g := Group{Name: name, Metrics: map[string]Interval{}}
		for i := range s.QIDs {
			if keep(i) {
				g.Questions++
			}
		}
		if g.Questions == 0 && name != AllTypes {
			return
		}
		for _, m := range Metrics {
			var x []float64
			for i, v := range s.Values[m] {
				if keep(i) && !math.IsNaN(v) {
					x = append(x, v)
				}
			}
			iv := Interval{N: len(x), Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
			if len(x) > 0 {
				iv.Mean, iv.Lo, iv.Hi = bootstrap.NewIndices(b, len(x), seed).MeanCI(x, level)
			}
			g.Metrics[m] = iv
		}
		groups = append(groups, g)
	}
	add(AllTypes, func(int) bool { return true })
	for _, t := range types {
		add(t, func(i int) bool { return s.Types[i] == t })
	}
	return groups
}
