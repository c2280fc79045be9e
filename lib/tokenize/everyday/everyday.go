// Package everyday is the analyzer for a person's own chat history, where
// Japanese, English, brand names, numbers, times and emoji meet in one
// message. It follows Lucene's JapaneseAnalyzer (kuromoji) and
// Elasticsearch's practice of a morphological field beside an n-gram
// sub-field, with kagome and the IPA dictionary (lib/tokenize/kagome):
//
//  1. Character filter (CJKWidthFilter): Unicode NFKC, then full case
//     folding, so full- and half-width letters, digits and katakana compare
//     equal (ﾊﾞｰﾍﾞｷｭｰ = バーベキュー, ３，０００ = 3,000, ＵＳＢ = usb). Each
//     normalised character keeps the bytes of the original text it came from.
//  2. Numbers, times and dates (JapaneseNumberFilter, for digits): a number
//     with digit-group commas is one number (3,000 = 3000); a time as chats
//     write it is one term "HH:MM" (19時 = 19:00 = 7pm = 午後7時 → 19:00;
//     7:30 = 7時半 = 7時30分 → 07:30; am/pm and 午前/午後 shift the hour);
//     a month and day is one term "M/D" (12/7 = 12月7日 = 2024/12/07 →
//     12/7, the year a number of its own). Other digit runs are numbers as
//     written. Kanji numerals before a counter are read as digits first
//     (三千円 = 3000円, 一等 = 1等, 十二月五日 = 12/5; kanjiNumerals).
//  3. Words of an alphabetic script: English stop words dropped (the
//     Snowball list), others Snowball-stemmed (bringing → bring).
//  4. Katakana words (JapaneseKatakanaStemFilter): a run of katakana is one
//     term, never split, so コート never matches inside チョコレート; trailing
//     long-vowel marks are removed from a word of four or more characters
//     (コンピューター = コンピュータ, サーバー = サーバ); the parts of a name
//     joined by a middle dot are one word (バル・ソーレ = バルソーレ).
//  5. Other Japanese (kanji, hiragana): kagome's morphemes in search mode.
//     The base field holds content morphemes in base form
//     (JapaneseBaseFormFilter: 行った → 行く); particles, auxiliaries,
//     symbols, fillers, interjections, conjunctions, adnominals, adverbs,
//     prefixes, pronouns, dependent and suffix nouns, dependent verbs and
//     the light verbs of lightVerbs are never terms
//     (JapanesePartOfSpeechStopFilter, see stopped).
//  6. The reading field (JapaneseReadingFormFilter), prefix "r:": the
//     katakana reading of the same Japanese text, as character bigrams, so
//     that kanji and kana spellings meet (駐車場 = ちゅうしゃじょう → r:チュ,
//     r:ュウ, …; 買い物 = かいもの). A morpheme in kana reads as its own
//     characters in katakana; a kanji morpheme reads as the dictionary's
//     reading. A particle or auxiliary after a kanji word ends a reading
//     run, and so do a kanji morpheme the base field stops (何) and a kanji
//     morpheme the dictionary does not know; kana after kana reads on
//     (see breaksReading), but a bigram read from particles and
//     auxiliaries alone (から, って) is no term.
//  7. The fallback field, prefix "g:": bigrams of adjacent kanji, for words
//     the dictionary does not know or splits (names, slang, typos: 駐車上
//     still shares g:駐車 with 駐車場).
//  8. The loanword field, prefixes "p:" (a katakana word's key) and "e:"
//     (an English word's): a katakana word and an English word that sound
//     alike share a key of consonant classes (プロジェクター = projector =
//     PRSKT, カーテン = curtain = KTN; loanword.go); a question looks for its
//     words' keys in the other script's field (AnalyzeQuestion), so it finds
//     a loanword written in the other script and never joins two words of
//     one. Keys under MinPhoneticKey consonants are no term: short words
//     sound alike by chance.
//  9. The spelling field, prefixes "k:" (a katakana word as written) and
//     "j:" (an uninflected kanji or hiragana word's reading, in katakana):
//     the same word in katakana and in kanji or hiragana shares a key
//     (ゴミ = ごみ, カギ = 鍵, ムリ = 無理; spelling.go), looked for across
//     the two kinds only, as the loanword field's keys are.
//
// Fields are combined as a weighted sum of BM25 over one index (one
// document length for all fields): documents index every term once
// (Tokens), and a question repeats each term by its field's weight
// (QueryTokens), so its BM25 score is Σ_field weight × BM25_field. The
// weights (BaseWeight, ReadingWeight, FallbackWeight, PhoneticWeight, and
// SoleWeight for a term no other field doubles) were chosen on the
// development sets (docs/everyday-search.md, "Field weights").
//
// Every term carries the bytes of the original text it was read from
// (Analyze): a word, number, time or katakana word its whole extent; a
// base-form term and its spelling key its morpheme; a reading bigram the morphemes of its two
// characters (a kana character only itself, and a character read from a
// particle or auxiliary nothing); a kanji bigram the morphemes of its two
// kanji. So a mark never falls inside a katakana or Latin word,
// and a particle or auxiliary is never a term.
//
// A chunk's raw_text writes each message after its date, send time and
// sender (spec §5); the send time is not read (withoutSendClocks): it is
// when a message was sent, not what it says.
//
// Imports: lib/tokenize/kagome (the morphology, loaded from its
// fast-loading dictionary form), lib/tokenize/token, lib/chat (the
// raw_text line head), golang.org/x/text,
// github.com/kljensen/snowball and the standard library.
package everyday

import (
	"strings"
	"unicode"

	"github.com/linemem/linemem/lib/tokenize/kagome"
	"github.com/linemem/linemem/lib/tokenize/token"
)

// Name is the registry name of this analyzer.
const Name = "everyday"

// Field prefixes. Base terms have none; each prefix is a letter and ':',
// which no base term starts with (a time term such as "19:00" starts with a
// digit), so fields never share a term (FieldTerm).
const (
	ReadingPrefix  = "r:"
	FallbackPrefix = "g:"
)

// FieldTerm reports whether term belongs to a field other than the base
// one: a reading or kanji bigram, or a loanword key.
func FieldTerm(term string) bool {
	return strings.HasPrefix(term, ReadingPrefix) || strings.HasPrefix(term, FallbackPrefix) || Alternative(term)
}

// PhoneticWeight is the field weight of a loanword term (KatakanaKeyPrefix,
// LatinKeyPrefix):
// a katakana or Latin word's sound alone, the weakest evidence. Chosen on
// the development sets (docs/everyday-search.md, "The loanword field"): 1
// showed the answer line first for 46.6% of the blind development set's
// questions, 2 for 46.6% with fewer on the mixed history (83.3% against
// 88.9%), no loanword field for 41.4%.
const PhoneticWeight = 1

// SpellingWeight is the field weight of a spelling key
// (KatakanaSpellingPrefix, ReadingSpellingPrefix): the same word in the
// other kind of script. Chosen on the development sets
// (docs/everyday-search.md, "The spelling field"): the blind development
// set, the mixed history and the synthetic corpus rank alike at 1, 3 and 5;
// RealPersonaChat showed the answer line first for 72.7%, 72.3% and 71.3%
// of its questions.
const SpellingWeight = 1

// Field weights: how many times a question repeats a term of each field
// (QueryTokens). A word in kanji or hiragana reaches the index through
// three fields, a katakana or Latin word, a number or a time through one:
// such a sole term weighs the three weights together, so that a question's
// words weigh alike whatever their script. Chosen on the development sets
// by the analyzer table's rule, the best mean Recall@5
// (docs/everyday-search.md, "Field weights"; raw_text BM25 Recall@5 /
// Success@1): synthetic 0.614 / 0.470, RealPersonaChat 0.851 / 0.747, the
// mixed history 1.000 / 0.889 (mean Recall@5 0.822); weights 2, 2, 1 gave
// 0.606 / 0.460, 0.858 / 0.753, 1.000 / 0.889 (0.821), 2, 1, 1 gave
// 0.614 / 0.470, 0.858 / 0.750, 0.944 / 0.889 (0.805); sole terms at
// BaseWeight (2, 1, 1) 0.614 / 0.430, 0.833 / 0.710, 0.944 / 0.833; the
// base field alone 0.635 / 0.430, 0.780 / 0.660, 0.944 / 0.833.
const (
	BaseWeight     = 3
	ReadingWeight  = 2
	FallbackWeight = 1
	SoleWeight     = BaseWeight + ReadingWeight + FallbackWeight
)

// Analyzer is the everyday analyzer. It is safe for concurrent use.
type Analyzer struct {
	morph *kagome.Morphology
}

// New returns the analyzer, loading kagome's dictionary once per process
// (from its fast-loading form when it exists).
func New() (*Analyzer, error) {
	m, err := kagome.NewMorphology()
	if err != nil {
		return nil, err
	}
	return &Analyzer{morph: m}, nil
}

// Name returns Name.
func (*Analyzer) Name() string { return Name }

// Tokens returns the terms of text in order, repeats kept; nil when there
// are none. Documents are indexed with these.
func (a *Analyzer) Tokens(text string) []string { return token.Terms(a.Analyze(text)) }

// AnalyzeQuestion returns the terms of a question: Analyze's, each
// loanword key under the other script's prefix (tokenize.QuestionAnalyzer).
func (a *Analyzer) AnalyzeQuestion(text string) []token.Token {
	toks := a.Analyze(text)
	for i := range toks {
		toks[i].Term = otherScript(toks[i].Term)
	}
	return toks
}

// QueryTokens returns the terms of a question (AnalyzeQuestion), each
// repeated by its field's weight, so that lib/bm25 sums
// Σ_field weight × BM25_field.
func (a *Analyzer) QueryTokens(text string) []string {
	var out []string
	for _, t := range a.AnalyzeQuestion(text) {
		for range Weight(t.Term) {
			out = append(out, t.Term)
		}
	}
	return out
}

// Weight is the field weight of term: ReadingWeight for a reading bigram,
// FallbackWeight for a kanji bigram, PhoneticWeight for a loanword key,
// SpellingWeight for a spelling key, BaseWeight for a base term with a
// kanji or hiragana (which has reading and fallback terms beside it), and
// SoleWeight for any other term (a Latin or katakana word, a number, a
// time, a date).
func Weight(term string) int {
	if i, _ := alternativeField(term); i >= 0 {
		return alternativeFields[i].weight
	}
	switch {
	case strings.HasPrefix(term, ReadingPrefix):
		return ReadingWeight
	case strings.HasPrefix(term, FallbackPrefix):
		return FallbackWeight
	case strings.ContainsFunc(term, func(r rune) bool { return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) }):
		return BaseWeight
	}
	return SoleWeight
}

// FieldName names the field of term for an explanation of a score
// (tokenize.FieldNamer): "reading bigram", "kanji bigram", the loanword and
// spelling keys' names, and "" for a base term.
func (*Analyzer) FieldName(term string) string {
	if i, _ := alternativeField(term); i >= 0 {
		return alternativeFields[i].name
	}
	switch {
	case strings.HasPrefix(term, ReadingPrefix):
		return "reading bigram"
	case strings.HasPrefix(term, FallbackPrefix):
		return "kanji bigram"
	}
	return ""
}

// Analyze returns the terms of text with the bytes of text each was read
// from, in reading order (within a run of Japanese: base terms, then
// reading bigrams, then kanji bigrams); nil when there are none.
func (a *Analyzer) Analyze(text string) []token.Token {
	chars := kanjiNumerals(normalize(withoutSendClocks(text)))
	var out []token.Token
	for i := 0; i < len(chars); {
		if t, n := timeOrNumber(chars, i); n > 0 {
			out = append(out, t...)
			i += n
			continue
		}
		k := chars[i].class
		if k == other {
			i++
			continue
		}
		j := i + 1
		for j < len(chars) && sameRun(k, chars[j-1], chars[j]) {
			j++
			if k == katakana && j+1 < len(chars) && chars[j].r == '・' && chars[j+1].class == katakana {
				j++ // バル・ソーレ is one word: a name's parts joined by a middle dot
			}
		}
		switch k {
		case letter:
			out = word(out, chars[i:j])
		case digit:
			out = append(out, span(chars[i:j], runText(chars[i:j])))
		case katakana:
			w := strings.ReplaceAll(runText(chars[i:j]), "・", "")
			stem := stemKatakana(w)
			out = append(out, span(chars[i:j], stem))
			if k := spelling(KatakanaSpellingPrefix, stem); k != "" {
				out = append(out, span(chars[i:j], k))
			}
			if p := phonetic(KatakanaKeyPrefix, katakanaKey(w)); p != "" {
				out = append(out, span(chars[i:j], p))
			}
		case cjk:
			out = a.japanese(out, chars[i:j])
		}
		i = j
	}
	return out
}

// sameRun reports whether next continues a run of class k after prev.
func sameRun(k class, prev, next char) bool {
	switch k {
	case letter:
		return next.class == letter || next.class == mark
	case katakana:
		return next.class == katakana || next.r == 'ー'
	case cjk:
		// ー after hiragana or kanji (すごーい) stays in the run.
		return next.class == cjk || next.r == 'ー' && prev.class == cjk
	}
	return next.class == k
}

// span is the token term over run.
func span(run []char, term string) token.Token {
	return token.Token{Term: term, Start: run[0].start, End: run[len(run)-1].end}
}

func runText(run []char) string {
	var b strings.Builder
	for _, c := range run {
		b.WriteRune(c.r)
	}
	return b.String()
}
