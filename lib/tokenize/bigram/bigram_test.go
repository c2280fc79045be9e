package bigram_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/tokenize/bigram"
)

func TestTokens(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"only punctuation and emoji", "、。！😀 ?", nil},
		{"kanji run", "東京都", []string{"東京", "京都"}},
		{"single character run", "雨 が", []string{"雨", "が"}},
		{"mixed scripts form one run", "東京タワー", []string{"東京", "京タ", "タワ", "ワー"}},
		{"punctuation separates runs", "数学、テスト", []string{"数学", "テス", "スト"}},
		{"NFKC full-width and lowercase", "ＵＳＢ", []string{"us", "sb"}},
		{"NFKC half-width katakana", "ｶﾀｶﾅ", []string{"カタ", "タカ", "カナ"}},
		{"digits", "2024年", []string{"20", "02", "24", "4年"}},
		{"iteration mark is a letter", "人々", []string{"人々"}},
		{"dotted version splits", "v1.2", []string{"v1", "2"}},
		{"repeats kept", "あああ", []string{"ああ", "ああ"}},
		{"combining voiced mark composes", "はか\u3099き", []string{"はが", "がき"}},
		{"upper case inside a run", "のLINE履歴", []string{"のl", "li", "in", "ne", "e履", "履歴"}},
		{"full-width question mark ends a run", "いつ？ＯＫ", []string{"いつ", "ok"}},
	}
	tok := bigram.New()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := tok.Tokens(c.text); !slices.Equal(got, c.want) {
				t.Errorf("Tokens(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

func ExampleTokenizer_Tokens() {
	fmt.Println(bigram.New().Tokens("京都駅、ＡＢ"))
	// Output: [京都 都駅 ab]
}

// reference is Tokens as the package doc states it, with the standard
// library's case mapping and character classes for every character.
func reference(text string) []string {
	s := strings.ToLower(norm.NFKC.String(text))
	var out []string
	var run []int
	flush := func(end int) {
		switch len(run) {
		case 0:
		case 1:
			out = append(out, s[run[0]:end])
		default:
			for i := 0; i+1 < len(run); i++ {
				stop := end
				if i+2 < len(run) {
					stop = run[i+2]
				}
				out = append(out, s[run[i]:stop])
			}
		}
		run = run[:0]
	}
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) {
			run = append(run, i)
			continue
		}
		flush(i)
	}
	flush(len(s))
	return out
}

// TestTokensEveryCharacter checks Tokens against reference on every Unicode
// code point, in runs of consecutive code points with and without an
// upper-case letter, a space and kana between them, and on bytes that are
// not UTF-8.
func TestTokensEveryCharacter(t *testing.T) {
	tok := bigram.New()
	const span = 128
	for lo := rune(0); lo <= unicode.MaxRune; lo += span {
		var plain, mixed strings.Builder
		for r := lo; r < lo+span && r <= unicode.MaxRune; r++ {
			plain.WriteRune(r)
			mixed.WriteRune(r)
			switch r % 5 {
			case 0:
				mixed.WriteByte(' ')
			case 1:
				mixed.WriteString("あ")
			case 2:
				mixed.WriteString("Q")
			}
		}
		for _, text := range []string{plain.String(), mixed.String()} {
			if got, want := tok.Tokens(text), reference(text); !slices.Equal(got, want) {
				t.Fatalf("code points %U…: Tokens = %q, want %q", lo, got, want)
			}
		}
	}
	for _, text := range []string{"ab\xffcd", "漢字\xe3\x81", "\xc0\xaf東京", "東京\uFFFD都", "ABC漢字", "漢字é"} {
		if got, want := tok.Tokens(text), reference(text); !slices.Equal(got, want) {
			t.Errorf("Tokens(%q) = %q, want %q", text, got, want)
		}
	}
}

// chunkTexts returns the raw_text and the embedding_text of every chunk of
// the conformance corpus: Japanese chat with timestamps, names, full-width
// punctuation and emoji; embedding_text adds a prefix with "LINE" and the
// chunk's summary.
func chunkTexts(tb testing.TB) (raw, embedding []string) {
	tb.Helper()
	dir := filepath.Join("..", "..", "..", "testdata", "conformance")
	summaries := map[string]string{}
	for _, line := range readLines(tb, filepath.Join(dir, "summaries.jsonl")) {
		var s struct {
			ChunkID string `json:"chunk_id"`
			Summary string `json:"summary"`
		}
		if err := json.Unmarshal(line, &s); err != nil {
			tb.Fatal(err)
		}
		summaries[s.ChunkID] = s.Summary
	}
	for _, line := range readLines(tb, filepath.Join(dir, "expected_chunks.jsonl")) {
		var c struct {
			ChunkID string `json:"chunk_id"`
			RawText string `json:"raw_text"`
		}
		if err := json.Unmarshal(line, &c); err != nil {
			tb.Fatal(err)
		}
		raw = append(raw, c.RawText)
		embedding = append(embedding, represent.EmbeddingText(summaries[c.ChunkID], c.RawText))
	}
	return raw, embedding
}

func readLines(tb testing.TB, path string) [][]byte {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return slices.Collect(bytes.Lines(data))
}

func BenchmarkTokens(b *testing.B) {
	raw, embedding := chunkTexts(b)
	for _, bc := range []struct {
		name  string
		texts []string
	}{{"raw_text", raw}, {"embedding_text", embedding}} {
		b.Run(bc.name, func(b *testing.B) {
			var size int64
			for _, t := range bc.texts {
				size += int64(len(t))
			}
			tok := bigram.New()
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, t := range bc.texts {
					tok.Tokens(t)
				}
			}
		})
	}
}

// TestStable checks every code point that bigram.Stable accepts: NFKC and
// unicode.ToLower leave it unchanged, it is a starter that combines with
// nothing before it (so NFKC may split the text in front of it), it is not
// U+FFFD (what a byte that is not UTF-8 decodes to), and its word flag is
// unicode.IsLetter || unicode.IsMark || unicode.IsDigit. Every ASCII
// character, A–Z included, is its own NFKC and such a starter.
func TestStable(t *testing.T) {
	count := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		ok, word := bigram.Stable(r)
		if !ok {
			continue
		}
		count++
		s := string(r)
		p := norm.NFKC.PropertiesString(s)
		switch {
		case r == utf8.RuneError:
			t.Errorf("%U is stable", r)
		case norm.NFKC.String(s) != s:
			t.Errorf("%U: NFKC gives %+q", r, norm.NFKC.String(s))
		case unicode.ToLower(r) != r:
			t.Errorf("%U: ToLower gives %U", r, unicode.ToLower(r))
		case p.CCC() != 0 || !p.BoundaryBefore():
			t.Errorf("%U: CCC %d, BoundaryBefore %v", r, p.CCC(), p.BoundaryBefore())
		case word != (unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r)):
			t.Errorf("%U: word = %v", r, word)
		}
	}
	if count == 0 {
		t.Fatal("no stable character")
	}
	// Tokens starts a stretch at an upper-case ASCII letter without the
	// character before it, and lower-cases a stretch of ASCII without norm.
	for r := rune(0); r < utf8.RuneSelf; r++ {
		s := string(r)
		p := norm.NFKC.PropertiesString(s)
		if norm.NFKC.String(s) != s || p.CCC() != 0 || !p.BoundaryBefore() {
			t.Errorf("%U: NFKC gives %+q, CCC %d, BoundaryBefore %v", r, norm.NFKC.String(s), p.CCC(), p.BoundaryBefore())
		}
	}
}

// unstableFollowers are characters that change what comes before them under
// NFKC (combining marks compose with the preceding starter; a Hangul vowel
// joins a leading consonant) or change themselves (full-width, half-width and
// compatibility forms, upper case), plus bytes that are not UTF-8.
var unstableFollowers = []string{
	"\u3099", "\u309A", "\u0301", "\u0308", "\u0323", "\uFF9E", "\uFF9F", "\u1161", "\u11A8",
	"\u309B", "Ａ", "ｶ", "？", "…", "㍿", "A", "Σ", "Д", "\xff", "\xe3\x81",
}

// TestTokensStableBeforeUnstable checks Tokens against reference on every
// stable character followed by each unstable one, in one text per stable
// character that starts with a stable letter.
func TestTokensStableBeforeUnstable(t *testing.T) {
	tok := bigram.New()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if ok, _ := bigram.Stable(r); !ok {
			continue
		}
		var b strings.Builder
		b.WriteString("あ")
		for _, f := range unstableFollowers {
			b.WriteRune(r)
			b.WriteString(f)
		}
		text := b.String()
		if got, want := tok.Tokens(text), reference(text); !slices.Equal(got, want) {
			t.Fatalf("Tokens(%+q) = %+q, want %+q", text, got, want)
		}
	}
}

// pieces is the alphabet of the random texts: Japanese, ASCII, full-width
// and half-width forms, combining marks, emoji, upper-case Latin, Greek and
// Cyrillic, compatibility characters, runs of more than 30 combining marks
// (where NFKC inserts U+034F) and bytes that are not UTF-8.
var pieces = []string{
	"あ", "か", "は", "う", "ゝ", "ゞ", "ア", "カ", "ハ", "ー", "・", "東", "京", "々", "〆", "〇", "、", "。", "「", "」", "〜",
	"a", "z", "0", "9", " ", "\n", ":", "-", ".", "A", "Z", "É", "Σ", "ς", "Д", "İ", "K", "ǅ",
	"Ａ", "ｚ", "０", "？", "！", "：", "ｶ", "ﾞ", "ﾟ", "ﾊ", "\u3099", "\u309A", "\u309B", "\u0301", "\u0308", "\u0345",
	"😂", "🙏", "☎", "✨", "\u200D", "\uFE0F", "♀", "…", "㍿", "①", "ﬁ", "\u1100", "\u1161", "\u11A8", "가",
	"ˡ", "ｄ", strings.Repeat("\u0301", 35), strings.Repeat("\u3099", 31),
	"\uFFFD", "\xff", "\xf2", "\xf0\x9f", "\xe3\x81", "\xc0\xaf", "\xed\xa0\x80",
}

// randomText joins n pieces drawn by rng.
func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// TestTokensRandom checks Tokens against reference on seeded random texts.
func TestTokensRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tok := bigram.New()
	for range 20000 {
		text := randomText(rng, rng.IntN(40))
		if got, want := tok.Tokens(text), reference(text); !slices.Equal(got, want) {
			t.Fatalf("Tokens(%+q) = %+q, want %+q", text, got, want)
		}
	}
}

func FuzzTokens(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 32 {
		f.Add(randomText(rng, 24))
	}
	f.Add("ｶﾞｷﾞ か\u3099き\u309A ÉCOLE ΣΊΣΥΦΟΣ ＵＳＢ…😂\xff")
	tok := bigram.New()
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := tok.Tokens(text), reference(text); !slices.Equal(got, want) {
			t.Fatalf("Tokens(%+q) = %+q, want %+q", text, got, want)
		}
	})
}
