package analyzers

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/tokenize"
)

// Set kinds of the abstention measurement.
const (
	Answerable = "answerable" // the folder's questions against the whole folder
	NoAnswer   = "no-answer"  // noanswer.jsonl: questions whose answer is in no chat
	OtherChats = "other-chat" // each question against the folder without the sources of its gold
)

// MaxOtherChatSources bounds the other-chat set: the questions of at most
// this many sources (the first by name) are asked without their source,
// each source needing an index of its own (RealPersonaChat has 397).
const MaxOtherChatSources = 40

// Confidences are the memory.ConfidenceOf values of one set of questions.
type Confidences struct {
	Corpus, Kind string
	Values       []float64
}

// LoadNoAnswer reads dir/noanswer.jsonl into c; a folder without one has
// none.
func LoadNoAnswer(dir string) ([]questions.Question, error) {
	qs, err := questions.ReadFile(filepath.Join(dir, "noanswer.jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return qs, err
}

// MeasureConfidence computes, with the everyday tokenizer and BM25 over
// raw_text, the confidence of the top window for three sets of c: its
// answerable questions (those with relevance-2 gold), noAnswer, and the
// answerable questions whose gold lies in one source asked against the
// folder without that source (when c has at least two sources; the first
// MaxOtherChatSources sources by name).
func MeasureConfidence(c *Corpus, noAnswer []questions.Question) ([]Confidences, error) {
	tok, err := tokenize.New(memory.EverydayTokenizer(""))
	if err != nil {
		return nil, err
	}
	all := bm25.New(docs(c.Chunks, ""), tok)
	text := map[string]string{}
	source := map[string]string{}
	for _, ch := range c.Chunks {
		text[ch.ID], source[ch.ID] = ch.RawText, ch.Source
	}
	top := func(ix *bm25.Index, q string) float64 {
		hits := ix.Search(q, 1)
		if len(hits) == 0 {
			return 0
		}
		return memory.ConfidenceOf(ix, tok, memory.ParseQuestion(q).Content, hits[0].ChunkID)
	}
	ans := Confidences{Corpus: c.Name, Kind: Answerable}
	bySource := map[string][]string{}
	for _, q := range c.Questions {
		srcs := map[string]bool{}
		for id, rel := range c.Qrels[q.QID] {
			if rel == 2 {
				srcs[source[id]] = true
			}
		}
		if len(srcs) == 0 {
			continue
		}
		ans.Values = append(ans.Values, top(all, q.Question))
		if len(srcs) == 1 {
			for s := range srcs {
				bySource[s] = append(bySource[s], q.Question)
			}
		}
	}
	out := []Confidences{ans}
	if len(noAnswer) > 0 {
		na := Confidences{Corpus: c.Name, Kind: NoAnswer}
		for _, q := range noAnswer {
			na.Values = append(na.Values, top(all, q.Question))
		}
		out = append(out, na)
	}
	if len(bySource) > 1 {
		other := Confidences{Corpus: c.Name, Kind: OtherChats}
		names := make([]string, 0, len(bySource))
		for s := range bySource {
			names = append(names, s)
		}
		sort.Strings(names)
		if len(names) > MaxOtherChatSources {
			names = names[:MaxOtherChatSources]
		}
		for _, s := range names {
			ix := bm25.New(docs(c.Chunks, s), tok)
			for _, q := range bySource[s] {
				other.Values = append(other.Values, top(ix, q))
			}
		}
		out = append(out, other)
	}
	return out, nil
}

// docs are the raw_text documents of chunks, without those of source
// without ("" keeps all).
func docs(chunks []chat.Chunk, without string) []bm25.Doc {
	var out []bm25.Doc
	for _, c := range chunks {
		if without == "" || c.Source != without {
			out = append(out, bm25.Doc{ID: c.ID, Text: c.RawText, StartAt: c.StartAt})
		}
	}
	return out
}

// Threshold is a confidence threshold with its error rates: a search
// abstains (says the history may not hold the answer) when its confidence
// is below At.
type Threshold struct {
	At float64
	// FalseAbstain is the share of answerable questions that abstain;
	// FalseAnswer the share of unanswerable ones (no-answer and
	// other-chat sets) that do not.
	FalseAbstain, FalseAnswer float64
	// Rule says how At was chosen, for the report.
	Rule string
}

// rates returns the error rates of abstaining below at.
func rates(sets []Confidences, at float64) Threshold {
	th := Threshold{At: at}
	var ans, abst, unans, answered int
	for _, s := range sets {
		for _, v := range s.Values {
			if s.Kind == Answerable {
				ans++
				if v < at {
					abst++
				}
			} else {
				unans++
				if v >= at {
					answered++
				}
			}
		}
	}
	if ans > 0 {
		th.FalseAbstain = float64(abst) / float64(ans)
	}
	if unans > 0 {
		th.FalseAnswer = float64(answered) / float64(unans)
	}
	return th
}

// ChooseThreshold returns the threshold, among the hundredths 0.00 … 1.00,
// that minimises the mean of the two error rates over all sets pooled
// (every question counting once in its rate); the lowest such threshold on
// a tie.
func ChooseThreshold(sets []Confidences) Threshold {
	best := rates(sets, 0)
	for i := 1; i <= 100; i++ {
		th := rates(sets, float64(i)/100)
		if th.FalseAbstain+th.FalseAnswer < best.FalseAbstain+best.FalseAnswer-1e-12 {
			best = th
		}
	}
	best.Rule = "minimises the mean of the two pooled error rates"
	return best
}

// MaxFalseAbstain is the share of answerable questions the everyday
// search may flag on any one set (ChooseThresholdWithin).
const MaxFalseAbstain = 0.15

// ChooseThresholdWithin returns the highest threshold, among the
// hundredths 0.00 … 1.00, at which no set of answerable questions has more
// than maxFlagged of its questions flagged: of the thresholds that keep the
// goal for answerable questions on every set, the one that flags the most
// unanswerable ones. 0 when even 0.01 flags too many.
func ChooseThresholdWithin(sets []Confidences, maxFlagged float64) Threshold {
	best := rates(sets, 0)
	for i := 1; i <= 100; i++ {
		at := float64(i) / 100
		ok := true
		for _, s := range sets {
			if s.Kind == Answerable && rates([]Confidences{s}, at).FalseAbstain > maxFlagged+1e-12 {
				ok = false
			}
		}
		if !ok {
			break
		}
		best = rates(sets, at)
	}
	best.Rule = fmt.Sprintf("is the highest that flags at most %.0f%% of the answerable questions of every set", 100*maxFlagged)
	return best
}

// AbstainReport lays out the error rates at threshold at on every set and
// pooled.
func AbstainReport(sets []Confidences, chosen Threshold, at float64) report.Table {
	rt := report.Table{Slug: "everyday_abstain", Caption: fmt.Sprintf("Saying \"the history may not hold the answer\" below confidence %.2f", at),
		Columns: []string{"corpus", "set", "questions", "error", "rate"}}
	for _, s := range sets {
		th := rates([]Confidences{s}, at)
		name, rate := "answerable questions flagged", th.FalseAbstain
		if s.Kind != Answerable {
			name, rate = "unanswerable questions not flagged", th.FalseAnswer
		}
		rt.Rows = append(rt.Rows, []string{s.Corpus, s.Kind, fmt.Sprint(len(s.Values)), name, fmt.Sprintf("%.3f", rate)})
	}
	pooled := rates(sets, at)
	rt.Rows = append(rt.Rows,
		[]string{"all", Answerable, "", "answerable questions flagged", fmt.Sprintf("%.3f", pooled.FalseAbstain)},
		[]string{"all", NoAnswer + ", " + OtherChats, "", "unanswerable questions not flagged", fmt.Sprintf("%.3f", pooled.FalseAnswer)})
	rt.Notes = append(rt.Notes, fmt.Sprintf("Confidence: the IDF-weighted share of the question's everyday terms held by the top window (memory.ConfidenceOf). The threshold that %s is %.2f (%.3f flagged, %.3f not flagged).", chosen.Rule, chosen.At, chosen.FalseAbstain, chosen.FalseAnswer))
	if slices.ContainsFunc(sets, func(s Confidences) bool { return s.Kind == OtherChats }) {
		rt.Notes = append(rt.Notes, fmt.Sprintf("other-chat: each question whose gold lies in one source, searched in the folder without that source (at most %d sources per folder, the first by name).", MaxOtherChatSources))
	}
	return rt
}
