package everyday

import (
	"strings"
	"unicode"

	"github.com/linemem/linemem/lib/tokenize/kagome"
	"github.com/linemem/linemem/lib/tokenize/token"
)

// lightVerbs are verbs and adjectives in base form that carry no content
// in a question or a chat line (する, ある, いる, なる, いう, ない, できる,
// おる) and are dropped like auxiliaries.
var lightVerbs = map[string]bool{"する": true, "ある": true, "いる": true, "なる": true, "いう": true, "ない": true, "できる": true, "おる": true}

// stopped reports whether a morpheme of part of speech pos is never a base
// term: Lucene's stoptags.txt (particles 助詞, auxiliaries 助動詞, symbols
// 記号, fillers フィラー, interjections 感動詞, conjunctions 接続詞, その他),
// and further adnominals 連体詞, adverbs 副詞 and prefixes 接頭詞, nouns
// that are pronouns (代名詞: 何, いつ, どこ), dependent (非自立: こと, の),
// suffixes (接尾: さん, 場 of 駐車場) or special (特殊), and verbs and
// adjectives that are not independent (非自立, 接尾: いる of 行っている,
// れる). A morpheme without a part of speech is stopped. It is the
// complement of the kagome tokenizer's content words, kagome.ContentWord.
func stopped(pos []string) bool { return !kagome.ContentWord(pos) }

// breaksReading reports whether morpheme m, after prev, ends a reading
// run. kagome's analysis of kanji is reliable and of hiragana is not
// (かいもの → かい, も, の: two "particles" inside a noun), so a run ends
//   - at a particle, auxiliary or symbol the dictionary knows right after a
//     morpheme with a kanji, a pronoun or a morpheme that ended the run
//     (駐車場|に, 行っ|た, なん|だ, 駅前|だっ|た), and at any morpheme the
//     base field stops after one that ended the run (駅前|だっ|た|の),
//   - at a known pronoun (なん, どこ, 何), and
//   - at a known morpheme with a kanji that the base field stops (事),
//     suffixes excepted (場 of 駐車場 reads on: ちゅうしゃじょう);
//
// a stretch of kana after kana reads on whole, so かいもの meets 買い物.
func breaksReading(prev *kagome.Morpheme, prevBroke bool, m kagome.Morpheme) bool {
	if !m.Known || len(m.POS) == 0 {
		return false
	}
	switch m.POS[0] {
	case "助詞", "助動詞", "記号":
		return prev != nil && (prevBroke || !allKana(prev.Surface) || pronoun(*prev))
	}
	if prevBroke && stopped(m.POS) {
		return true
	}
	return pronoun(m) || !allKana(m.Surface) && stopped(m.POS) && !(len(m.POS) > 1 && m.POS[1] == "接尾")
}

// pronoun reports whether m is a pronoun the dictionary knows.
func pronoun(m kagome.Morpheme) bool { return m.Known && len(m.POS) > 1 && m.POS[1] == "代名詞" }

// allKana reports whether s holds kana (and ー) only.
func allKana(s string) bool { return strings.IndexFunc(s, func(r rune) bool { return !isKana(r) }) < 0 }

// reading is one character of a reading run and the bytes it was read
// from.
type reading struct {
	r          rune
	start, end int
	function   bool // read from a particle or auxiliary
}

// function reports whether m is a particle or auxiliary the dictionary
// knows.
func function(m kagome.Morpheme) bool {
	return m.Known && len(m.POS) > 0 && (m.POS[0] == "助詞" || m.POS[0] == "助動詞")
}

// japanese appends the base, reading and fallback terms of a run of kanji
// and hiragana.
func (a *Analyzer) japanese(out []token.Token, run []char) []token.Token {
	var b strings.Builder
	at := make([]int, 0, len(run)+1) // byte offset in the run's text → char index
	for i, c := range run {
		for range len(string(c.r)) {
			at = append(at, i)
		}
		b.WriteRune(c.r)
	}
	at = append(at, len(run))
	morphs := a.morph.Morphemes(b.String())
	if len(morphs) == 0 {
		return out
	}
	// The bytes of the original text each morpheme covers.
	from := func(m kagome.Morpheme) (int, int) { return run[at[m.Start]].start, run[at[m.End]-1].end }

	for _, m := range morphs {
		if stopped(m.POS) || !strings.ContainsFunc(m.Surface, unicode.IsLetter) {
			continue
		}
		term := m.Surface
		if m.Base != "" {
			term = m.Base
		}
		if lightVerbs[term] {
			continue
		}
		s, e := from(m)
		out = append(out, token.Token{Term: term, Start: s, End: e})
		if k := readingSpelling(m, term); k != "" {
			out = append(out, token.Token{Term: k, Start: s, End: e})
		}
	}

	var readings []reading
	flush := func() {
		for i := 0; i+1 < len(readings); i++ {
			p, q := readings[i], readings[i+1]
			if p.function && q.function {
				continue // から, って, らし: a particle or auxiliary is never a term
			}
			// The bigram covers the bytes of its characters read from
			// content (the っ of って in なってる, not the particle).
			start, end := min(p.start, q.start), max(p.end, q.end)
			if p.function {
				start, end = q.start, q.end
			} else if q.function {
				start, end = p.start, p.end
			}
			out = append(out, token.Token{Term: ReadingPrefix + string([]rune{p.r, q.r}), Start: start, End: end})
		}
		readings = readings[:0]
	}
	broke := false
	for k, m := range morphs {
		var prev *kagome.Morpheme
		if k > 0 {
			prev = &morphs[k-1]
		}
		brk := breaksReading(prev, broke, m)
		broke = brk
		switch {
		case brk:
			flush()
		case allKana(m.Surface):
			for i := m.Start; i < m.End; {
				c := run[at[i]]
				readings = append(readings, reading{toKatakana(c.r), c.start, c.end, function(m)})
				i += len(string(c.r))
			}
		case m.Reading != "":
			s, e := from(m)
			for _, r := range m.Reading {
				readings = append(readings, reading{r, s, e, function(m)})
			}
		default:
			flush()
		}
	}
	flush()

	// The morpheme of each character, for the fallback bigrams' bytes.
	morphOf := make([]int, len(run))
	for k, m := range morphs {
		for i := at[m.Start]; i < at[m.End]; i++ {
			morphOf[i] = k
		}
	}
	for i := 0; i+1 < len(run); i++ {
		if !isHan(run[i].r) || !isHan(run[i+1].r) {
			continue
		}
		s1, e1 := from(morphs[morphOf[i]])
		s2, e2 := from(morphs[morphOf[i+1]])
		out = append(out, token.Token{Term: FallbackPrefix + string([]rune{run[i].r, run[i+1].r}), Start: min(s1, s2), End: max(e1, e2)})
	}
	return out
}
