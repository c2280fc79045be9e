package memory

import (
	"regexp"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Asks is what a question asks for, read from its question words (Parse).
type Asks string

// What a question can ask for. The names are those of the asks field of a
// held-out questions.jsonl.
const (
	AsksWhen    Asks = "when"     // いつ, 何時, 何日, when, what time
	AsksHowMuch Asks = "how_much" // いくら, 何円, いくつ, 何人, how much, how many
	AsksWhere   Asks = "where"    // どこ, where
	AsksWho     Asks = "who"      // 誰, だれ, who, whose
	AsksWhat    Asks = "what"     // 何, なに, どれ, どんな, what, which
	AsksYesNo   Asks = "yes_no"   // a question without a question word that starts with did, is, … or ends in か / の
	AsksOther   Asks = ""         // a statement or a search phrase
)

// Question is a question split into the words that carry its content and
// the words that only say what it asks for.
type Question struct {
	Text string // as typed
	// Content is Text with its question words and question endings
	// replaced by spaces (so no term spans the gap): the part that is
	// matched against the history. Text itself when nothing would be left.
	Content string
	Asks    Asks
	// Clock: a when-question asks for a time of day (何時, なんじ, what
	// time), not for a date (いつ, when).
	Clock bool
	// Money: a how-much question asks for a sum of money (いくら, 何円,
	// なんえん, how much), not for a count (何人, いくつ, how many) or a
	// length of time (何時間).
	Money bool
	// Words are the question words taken out, as typed, in order.
	Words []string
	// stated are the dates, times or amounts of the kind a when or
	// how-much question asks for that its own text holds, as its carrier
	// pattern (Pattern, the one CarriedBy matches lines with) matches
	// them; nil for other questions.
	stated map[string]bool
}

// questionWord is one question word and what it asks for. Japanese words
// are matched anywhere in the question, except before the か or も that
// makes them indefinite (いつも, どこか, 何か; see indefinite); English words
// as whole words.
type questionWord struct {
	word string
	asks Asks
}

// jaQuestionWords are the Japanese interrogatives, in kanji and in kana,
// longest first within a shared prefix so 何時間 is read before 何時 and
// 何時 before 何. A count of hours or minutes (何時間, 何分) asks how much.
// なんかい and なんこ are left out in kana: なんか (“something”, “like”)
// opens too many chat lines (なんかいい店ある？).
var jaQuestionWords = []questionWord{
	{"何時間", AsksHowMuch}, {"なんじかん", AsksHowMuch}, {"何分", AsksHowMuch}, {"なんぷん", AsksHowMuch},
	{"何曜日", AsksWhen}, {"なんようび", AsksWhen}, {"何曜", AsksWhen},
	{"何時", AsksWhen}, {"なんじ", AsksWhen}, {"何日", AsksWhen}, {"なんにち", AsksWhen}, {"何月", AsksWhen}, {"なんがつ", AsksWhen}, {"いつ", AsksWhen},
	{"いくら", AsksHowMuch}, {"何円", AsksHowMuch}, {"なんえん", AsksHowMuch}, {"何人", AsksHowMuch}, {"なんにん", AsksHowMuch},
	{"何個", AsksHowMuch}, {"いくつ", AsksHowMuch}, {"何回", AsksHowMuch},
	{"どこ", AsksWhere}, {"どちら", AsksWhere},
	{"だれ", AsksWho}, {"誰", AsksWho},
	{"どんな", AsksWhat}, {"どれ", AsksWhat}, {"どの", AsksWhat}, {"どっち", AsksWhat}, {"なに", AsksWhat}, {"なん", AsksWhat}, {"何", AsksWhat},
}

// jaClockWords are the interrogatives of jaQuestionWords that ask for a
// time of day (Question.Clock).
var jaClockWords = map[string]bool{"何時": true, "なんじ": true}

// jaMoneyWords are the interrogatives of jaQuestionWords that ask for a sum
// of money (Question.Money).
var jaMoneyWords = map[string]bool{"いくら": true, "何円": true, "なんえん": true}

// indefinite reports whether rest, the question after a Japanese
// interrogative, opens with the も or か that makes it indefinite (いつも,
// どこか, 何か, いくらか). The か of から (いつから, どこから), of かかる
// (いくらかかった) and a closing か or かな (いつか？ as "when?") leave it a
// question.
func indefinite(rest string) bool {
	if strings.HasPrefix(rest, "も") {
		return true
	}
	after, ok := strings.CutPrefix(rest, "か")
	if !ok {
		return false
	}
	after = strings.TrimLeft(after, " ?!。.、,")
	for _, p := range []string{"ら", "かる", "かり", "かっ", "かれ", "かろ"} {
		if strings.HasPrefix(after, p) {
			return false
		}
	}
	return after != "" && after != "な"
}

// jaQuestionEndings are the endings of a Japanese question that carry no
// content (なんだっけ, だったっけ, でしたか, …), stripped from the end of the
// question, longest first, repeatedly.
var jaQuestionEndings = []string{
	"だったっけ", "でしたっけ", "なんだっけ", "だっけ", "っけ",
	"でしたか", "ですか", "ますか", "だった", "でした", "かな", "なの", "の", "か", "は",
}

// enQuestionWords are the English question words (lower case); "much" and
// "many" count only after "how".
var enQuestionWords = map[string]Asks{
	"when": AsksWhen, "where": AsksWhere, "who": AsksWho, "whom": AsksWho, "whose": AsksWho,
	"what": AsksWhat, "which": AsksWhat, "how": AsksOther,
}

// enYesNo are the words that open an English yes/no question.
var enYesNo = map[string]bool{
	"did": true, "do": true, "does": true, "is": true, "are": true, "was": true, "were": true,
	"have": true, "has": true, "had": true, "can": true, "could": true, "will": true, "would": true, "should": true,
}

var enWord = regexp.MustCompile(`[A-Za-z]+`)

// ParseQuestion splits text into its content and its question words and
// reads what it asks for from the first question word: "when" and "what
// time" ask when, "how much"/"how many" how much, and so on (Asks). The
// text is compared after NFKC, so ？ and ? are one.
func ParseQuestion(text string) Question {
	q := Question{Text: text, Asks: AsksOther}
	s := norm.NFKC.String(text)
	// the rest of the parse works on s, whose byte offsets are not those
	// of text; Content is built from s
	b := []byte(s)
	blank := func(i, j int) {
		q.Words = append(q.Words, string(b[i:j]))
		for k := i; k < j; k++ {
			b[k] = ' '
		}
	}
	// English: whole words
	words := enWord.FindAllStringIndex(s, -1)
	for n, w := range words {
		lw := strings.ToLower(s[w[0]:w[1]])
		asks, ok := enQuestionWords[lw]
		switch {
		case ok && lw == "how":
			if n+1 < len(words) {
				if next := strings.ToLower(s[words[n+1][0]:words[n+1][1]]); next == "much" || next == "many" {
					q.setAsks(AsksHowMuch)
					q.Money = q.Money || next == "much"
					blank(w[0], w[1])
					blank(words[n+1][0], words[n+1][1])
				}
			}
		case ok && lw == "what" && n+1 < len(words) && strings.EqualFold(s[words[n+1][0]:words[n+1][1]], "time"):
			q.setAsks(AsksWhen)
			q.Clock = true
			blank(w[0], w[1])
			blank(words[n+1][0], words[n+1][1])
		case ok:
			q.setAsks(asks)
			blank(w[0], w[1])
		case n == 0 && enYesNo[lw]:
			q.setAsks(AsksYesNo)
		}
	}
	// Japanese: question endings, then interrogatives
	end := len(strings.TrimRight(string(b), " ?!。.、,!"))
	for stripped := true; stripped; {
		stripped = false
		for _, e := range jaQuestionEndings {
			if end >= len(e) && string(b[end-len(e):end]) == e && end > len(e) {
				if e == "か" || e == "の" {
					q.setAsks(AsksYesNo)
				}
				blank(end-len(e), end)
				end = len(strings.TrimRight(string(b[:end-len(e)]), " "))
				stripped = true
				break
			}
		}
	}
	for _, w := range jaQuestionWords {
		for from := 0; ; {
			i := strings.Index(string(b[from:]), w.word)
			if i < 0 {
				break
			}
			i += from
			j := i + len(w.word)
			from = j
			if indefinite(string(b[j:])) {
				continue
			}
			if q.Asks == AsksOther || q.Asks == AsksYesNo || q.Asks == AsksWhat && w.asks != AsksWhat {
				q.Asks = w.asks
			}
			q.Clock = q.Clock || jaClockWords[w.word]
			q.Money = q.Money || jaMoneyWords[w.word]
			blank(i, j)
		}
	}
	if q.Asks == AsksWhen || q.Asks == AsksHowMuch {
		q.stated = map[string]bool{}
		for _, m := range q.Pattern().FindAllString(strings.ToLower(s), -1) {
			q.stated[m] = true
		}
	}
	q.Content = string(b)
	if strings.TrimSpace(strings.Trim(q.Content, "?!。.、, ")) == "" {
		q.Content = text
	}
	return q
}

// statementEndings are the question endings that end a statement as often
// as a question: 「無理でした」, 「3,300円だった」, 「これは」, and かな, which
// hedges a statement (「片道2,470円くらいかな」, 「行こうかな」).
var statementEndings = map[string]bool{"だった": true, "でした": true, "は": true, "かな": true}

// Asking reports whether q's text asks something: it holds a question
// word, opens as an English yes/no question (did, is, …) or ends as only a
// question ends (だっけ, ですか, か, の, …); だった, でした, は and かな,
// stripped from a question all the same, end statements as often and do
// not count. A question mark is not looked at.
func (q Question) Asking() bool {
	if q.Asks != AsksOther {
		return true
	}
	for _, w := range q.Words {
		if !statementEndings[w] {
			return true
		}
	}
	return false
}

// setAsks records what the question asks for: the first question word
// decides, except that a yes/no opening gives way to a question word
// ("did you see where …" asks where) and "what" to a more precise one.
func (q *Question) setAsks(a Asks) {
	if q.Asks == AsksOther || q.Asks == AsksYesNo && a != AsksYesNo || q.Asks == AsksWhat && a != AsksWhat && a != AsksYesNo {
		q.Asks = a
	}
}
