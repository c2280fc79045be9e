package answer

import (
	"strconv"
	"strings"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/tokenize"
)

// neighbourWeight is how much a question term counts when a neighbour of
// the message holds it and the message does not.
const neighbourWeight = 0.5

// coverageAnswer is MethodCoverage. Documents are the distinct non-empty
// messages of the top window; W is the words of the question's content
// (memory.QuestionWords: a word with its reading, kanji-bigram, loanword
// and spelling terms; memory.ParseQuestion: question words such as いつ or "when" are not
// matched), idf(t) a term's IDF over the history's index when WithIDF gave
// one (as `ask` does), else its BM25 IDF over those messages, and
// h(w, S) = max_{t ∈ w ∩ S} idf(t) (0 when S holds no term of w) what a set
// of terms S holds of word w. A message m with neighbours m−1 and m+1
// scores
//
//	s(m) = Σ_{w ∈ W} h(w, T(m))  +  ½ · Σ_{w ∈ W, h(w, T(m)) = 0} h(w, T(m−1) ∪ T(m+1)),
//
// the question-word coverage of the message and, at half weight, of its
// neighbours: in chat the question's words and the answer are often in
// neighbouring lines. A word counts once, by its best term, so a kanji word
// with five reading and bigram terms weighs no more than one with two. The
// best message wins (ties: the earlier message).
// The line quoted is then answerLine's, in this order:
//
//  1. the best message, when it is no question and carries what the
//     question asks for (a date or time for いつ/when, a clock time for
//     何時, a sum of money for いくら/how much, …, beyond what the
//     question itself states: memory.Question.CarriedBy);
//  2. for a who-question, the best message when it is no question (its
//     sender is the person asked about), else the first reply to it by
//     someone else that is no question (the replier is);
//  3. the nearest line within memory.ReplyReach messages that is no
//     question and carries what is asked (after it first);
//  4. when the best message is a question, the first reply by someone else
//     within memory.ReplyReach messages that is no question, or, when the
//     question asks for something in particular (when, how much, where,
//     who, what), the first such line by anyone;
//  5. the best message.
//
// A question line never answers itself: 「山口さんって誰でしたっけ」 names a
// person, but its reply says who he is. The quote names who wrote it and
// when, in the question's language (frame), cited by the window's number
// with the matched message beside the quoted one. No message with a
// question term: the abstention in the question's language.
func (e *Extractive) coverageAnswer(a Answer, question string, chunks []memory.Result) Answer {
	if len(chunks) > 1 {
		chunks = chunks[:1]
	}
	pq := memory.ParseQuestion(question)
	q := map[string]bool{}
	for _, t := range tokenize.QuestionTokens(e.tok, pq.Content) {
		q[t] = true
	}
	seen := map[string]bool{}
	var docs []bm25.Doc
	terms := make([][]map[string]bool, len(chunks))
	for i, c := range chunks {
		terms[i] = make([]map[string]bool, len(c.Messages))
		for j, m := range c.Messages {
			set := map[string]bool{}
			for _, t := range e.tok.Tokens(m.Text) {
				if q[t] {
					set[t] = true
				}
			}
			terms[i][j] = set
			if !seen[m.ID] && strings.TrimSpace(m.Text) != "" {
				seen[m.ID] = true
				docs = append(docs, bm25.Doc{ID: m.ID, Text: m.Text})
			}
		}
	}
	idf := e.idf
	if idf == nil {
		ix := bm25.New(docs, e.tok)
		idf = func(t string) float64 { return bm25.IDF(ix.Len(), ix.DocFreq(t)) }
	}
	words := memory.QuestionWords(e.tok, pq.Content)
	// held is the largest idf of a term of word w that one of sets holds, 0
	// when none does.
	held := func(w []string, sets ...map[string]bool) float64 {
		v := 0.0
		for _, t := range w {
			for _, set := range sets {
				if set[t] {
					v = max(v, idf(t))
				}
			}
		}
		return v
	}
	best, bi, bj := 0.0, -1, -1
	counted := map[string]bool{}
	for i, c := range chunks {
		for j, m := range c.Messages {
			if counted[m.ID] || len(terms[i][j]) == 0 {
				continue
			}
			counted[m.ID] = true
			var near []map[string]bool
			for _, k := range []int{j - 1, j + 1} {
				if k >= 0 && k < len(c.Messages) {
					near = append(near, terms[i][k])
				}
			}
			s := 0.0
			for _, w := range words {
				if v := held(w, terms[i][j]); v > 0 {
					s += v
				} else {
					s += neighbourWeight * held(w, near...)
				}
			}
			if s > best+1e-12 {
				best, bi, bj = s, i, j
			}
		}
	}
	if bi < 0 {
		a.Text, a.Abstained = abstainText(question), true
		return a
	}
	c := chunks[bi]
	k := answerLine(c.Messages, bj, pq)
	n := bi + 1
	a.Text = frame(question, c.Messages[k], n, e.me)
	ids := []string{c.Messages[k].ID}
	if k != bj {
		ids = []string{c.Messages[min(bj, k)].ID, c.Messages[max(bj, k)].ID}
	}
	a.Citations = []Citation{{N: n, ChunkID: c.ChunkID, MessageIDs: ids}}
	return a
}

// answerLine picks the line of msgs that answers the question q whose
// words best match message j (see coverageAnswer).
func answerLine(msgs []memory.Message, j int, q memory.Question) int {
	asks := q.Asks
	var senders []string
	for _, m := range msgs {
		senders = append(senders, m.Sender)
	}
	questions := map[int]bool{} // isQuestion of each line looked at, read once
	question := func(k int) bool {
		is, seen := questions[k]
		if !seen {
			is = isQuestion(msgs[k].Text)
			questions[k] = is
		}
		return is
	}
	carries := func(k int) bool {
		return !question(k) && q.CarriedBy(msgs[k].Text, senders)
	}
	asked := question(j)
	reply := func() int {
		for k := j + 1; k < min(len(msgs), j+1+memory.ReplyReach); k++ {
			if (!asked || msgs[k].Sender != msgs[j].Sender) && strings.TrimSpace(msgs[k].Text) != "" && !question(k) {
				return k
			}
		}
		return -1
	}
	switch {
	case carries(j):
		return j
	case asks == memory.AsksWho && !asked:
		return j
	case asks == memory.AsksWho:
		if k := reply(); k >= 0 {
			return k
		}
	}
	for d := 1; d <= memory.ReplyReach; d++ {
		if k := j + d; k < len(msgs) && carries(k) {
			return k
		}
		if k := j - d; k >= 0 && carries(k) {
			return k
		}
	}
	if asked || asks != memory.AsksOther && asks != memory.AsksYesNo {
		if k := reply(); k >= 0 {
			return k
		}
	}
	return j
}

// isQuestion reports whether a chat line asks something: it has a
// question mark, or a question word or question ending
// (memory.Question.Asking: 「無理でした」 and 「3,300円だった」 do not ask).
func isQuestion(text string) bool {
	if strings.ContainsAny(text, "?？") {
		return true
	}
	return memory.ParseQuestion(text).Asking()
}

// quoteOne answers with message j of window i alone, cited by the window's
// number.
func quoteOne(a Answer, chunks []memory.Result, i, j int) Answer {
	c := chunks[i]
	n := i + 1
	a.Text = strings.ReplaceAll(c.Messages[j].Text, "\n", " ") + " [" + strconv.Itoa(n) + "]"
	a.Citations = []Citation{{N: n, ChunkID: c.ChunkID, MessageIDs: []string{c.Messages[j].ID}}}
	return a
}

// firstMatchAnswer is MethodFirstMatch: the first marked message of the top
// window; AbstainPhrase when it has none.
func firstMatchAnswer(a Answer, chunks []memory.Result) Answer {
	if len(chunks) == 0 || len(chunks[0].Matched) == 0 {
		a.Text, a.Abstained = AbstainPhrase, true
		return a
	}
	return quoteOne(a, chunks, 0, chunks[0].Matched[0])
}
