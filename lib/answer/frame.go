package answer

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/linemem/linemem/lib/memory"
)

// AbstainPhraseEnglish is AbstainPhrase for a question asked in English.
const AbstainPhraseEnglish = "The history does not say."

// English reports whether question is asked in English: it holds no
// hiragana and no Japanese question word (a question with Japanese grammar
// is Japanese, whatever words it borrows: "pancake いくらだった", "MacBook Air
// 何円"), and more Latin letters than Han and katakana characters together.
func English(question string) bool {
	for _, w := range memory.ParseQuestion(question).Words {
		if strings.ContainsFunc(w, func(r rune) bool { return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) }) {
			return false
		}
	}
	latin, cjk := 0, 0
	for _, r := range question {
		switch {
		case unicode.Is(unicode.Hiragana, r):
			return false
		case unicode.Is(unicode.Latin, r):
			latin++
		case unicode.In(r, unicode.Han, unicode.Katakana):
			cjk++
		}
	}
	return latin > cjk
}

// abstainText is the abstention in the question's language.
func abstainText(question string) string {
	if English(question) {
		return AbstainPhraseEnglish
	}
	return AbstainPhrase
}

// frame quotes message m of window n in the question's language, naming
// who wrote it and when, "you" for me (the person whose history it is; ""
// when unknown):
//
//	English:  Ken, 11 May 2024: "Soba place Matsuya near Kanda station" [1]
//	Japanese: Ken（2024年5月11日）：「Soba place Matsuya near Kanda station」[1]
func frame(question string, m memory.Message, n int, me string) string {
	text := strings.ReplaceAll(m.Text, "\n", " ")
	who := m.Sender
	en := English(question)
	if me != "" && memory.NameMatches(m.Sender, me) {
		who = "あなた"
		if en {
			who = "you"
		}
	}
	cite := " [" + strconv.Itoa(n) + "]"
	switch {
	case who == "" && en:
		return `"` + text + `"` + cite
	case who == "":
		return "「" + text + "」" + cite
	}
	if en {
		if m.At.IsZero() {
			return who + `: "` + text + `"` + cite
		}
		return who + ", " + m.At.Format("2 January 2006") + `: "` + text + `"` + cite
	}
	if m.At.IsZero() {
		return who + "：「" + text + "」" + cite
	}
	return who + "（" + m.At.Format("2006年1月2日") + "）：「" + text + "」" + cite
}
