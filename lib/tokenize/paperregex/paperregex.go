// Package paperregex is the paper's BM25 tokenizer, exactly as spec §8 fixes
// it: no Unicode normalisation, ASCII-only lowercasing, then every leftmost,
// non-overlapping, greedy match of
//
//	[a-z0-9]+(?:[._-][a-z0-9]+)*
//	| [\x{30A1}-\x{30FA}\x{30FC}]{2,}
//	| [\x{3005}\x{3006}\x{3400}-\x{4DBF}\x{4E00}-\x{9FFF}\x{F900}-\x{FAFF}]{2,}
//
// (ASCII alphanumerics with inner '.', '_' or '-'; katakana runs of at least
// two; kanji runs of at least two), minus the stopwords in Stopwords and minus
// one-character tokens other than "a" and "b". Hiragana, single kana or kanji,
// emoji, symbols, half-width katakana and full-width letters yield nothing.
//
// The three alternatives start with disjoint characters, so leftmost-first
// (Perl, Python, Go's RE2) and leftmost-longest agree. The matcher here is a
// hand-written scanner, equivalent to Pattern and several times faster than
// the regexp package; its tests compare both on random strings.
package paperregex

import (
	"unicode/utf8"

	"github.com/linemem/linemem/lib/tokenize/token"
)

// Name is the registry name of this tokenizer.
const Name = "paper-regex"

// Pattern is the spec §8 regular expression, for reference and tests; Tokens
// does not use it.
const Pattern = `[a-z0-9]+(?:[._-][a-z0-9]+)*|[\x{30A1}-\x{30FA}\x{30FC}]{2,}|[\x{3005}\x{3006}\x{3400}-\x{4DBF}\x{4E00}-\x{9FFF}\x{F900}-\x{FAFF}]{2,}`

// Stopwords are the tokens dropped after matching (spec §8).
var Stopwords = []string{
	"line", "ライン", "トーク", "会話", "話題", "相談", "要約", "内容",
	"自分", "私達", "僕達", "何時", "何回", "何度", "何人", "何処",
}

var stopwords = func() map[string]bool {
	m := make(map[string]bool, len(Stopwords))
	for _, w := range Stopwords {
		m[w] = true
	}
	return m
}()

// Tokenizer is the spec §8 tokenizer. The zero value is ready to use and safe
// for concurrent use.
type Tokenizer struct{}

// New returns the spec §8 tokenizer.
func New() Tokenizer { return Tokenizer{} }

// Name returns Name.
func (Tokenizer) Name() string { return Name }

// Tokens returns the tokens of text in order, repeats kept. A text without
// tokens gives nil.
func (t Tokenizer) Tokens(text string) []string { return token.Terms(t.Analyze(text)) }

// Analyze returns the tokens of text in order with the bytes of text each
// was matched in; nil when there are none. Lowercasing is ASCII only, so a
// token's bytes are those of its match.
func (Tokenizer) Analyze(text string) []token.Token {
	lower := asciiLower(text)
	var out []token.Token
	for _, m := range spans(lower) {
		word := lower[m[0]:m[1]]
		if stopwords[word] {
			continue
		}
		if utf8.RuneCountInString(word) == 1 && word != "a" && word != "b" {
			continue
		}
		out = append(out, token.Token{Term: word, Start: m[0], End: m[1]})
	}
	return out
}

// Matches returns the raw matches of Pattern over text after ASCII
// lowercasing, before stopword and length filtering.
func Matches(text string) []string {
	lower := asciiLower(text)
	out := []string{}
	for _, m := range spans(lower) {
		out = append(out, lower[m[0]:m[1]])
	}
	return out
}

// spans returns the byte ranges of the matches of Pattern in lower, an
// ASCII-lowercased text.
func spans(lower string) [][2]int {
	var out [][2]int
	for i := 0; i < len(lower); {
		c := lower[i]
		if isAlnum(c) {
			end := alnumRun(lower, i)
			for end+1 < len(lower) && isSeparator(lower[end]) && isAlnum(lower[end+1]) {
				end = alnumRun(lower, end+1)
			}
			out = append(out, [2]int{i, end})
			i = end
			continue
		}
		r, size := utf8.DecodeRuneInString(lower[i:])
		var class func(rune) bool
		switch {
		case isKatakana(r):
			class = isKatakana
		case isKanji(r):
			class = isKanji
		default:
			i += size
			continue
		}
		// At the end of the text the decoder returns utf8.RuneError, which
		// no class holds.
		end, n := i+size, 1
		for {
			r, size := utf8.DecodeRuneInString(lower[end:])
			if !class(r) {
				break
			}
			end += size
			n++
		}
		if n >= 2 {
			out = append(out, [2]int{i, end})
		}
		i = end
	}
	return out
}

// asciiLower maps 'A'–'Z' to 'a'–'z' and leaves every other byte alone, so
// byte offsets and non-ASCII text are unchanged.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

func isAlnum(c byte) bool     { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
func isSeparator(c byte) bool { return c == '.' || c == '_' || c == '-' }

// alnumRun returns the end of the run of [a-z0-9] starting at i.
func alnumRun(s string, i int) int {
	for i < len(s) && isAlnum(s[i]) {
		i++
	}
	return i
}

// isKatakana reports membership in [\x{30A1}-\x{30FA}\x{30FC}]: katakana
// letters and the long-vowel mark ー, not the middle dot ・.
func isKatakana(r rune) bool { return 0x30A1 <= r && r <= 0x30FA || r == 0x30FC }

// isKanji reports membership in [々〆 CJK Extension A, CJK Unified
// Ideographs, CJK Compatibility Ideographs].
func isKanji(r rune) bool {
	return r == 0x3005 || r == 0x3006 ||
		0x3400 <= r && r <= 0x4DBF ||
		0x4E00 <= r && r <= 0x9FFF ||
		0xF900 <= r && r <= 0xFAFF
}
