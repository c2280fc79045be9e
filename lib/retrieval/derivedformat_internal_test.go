package retrieval

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/tokenize"
)

// tokenizersFingerprints are tokenizerOutput's hash for each derivedFormat
// from 3 on: the tokens every registered tokenizer gave sampleText under
// that format. A cached index records the format, not the code, so an index
// built by an older tokenizer would be read as current; a changed output
// needs a new format, and its entry here.
var tokenizersFingerprints = map[int]string{
	3: "017a1e34a0df1e19252cbf39c3819a1ee11edcf5fd1c0e8067cf2dcedbe107f3", // the everyday analyzer's loanword field, kanji numerals, ・
	4: "063120686fc11b95a72ebd5969e3c7682c2373658bbd84d62568b65fd0fae24f", // the loanword keys of English words under their own prefix
	5: "0d6298c3910d82a6346b3e23bc7a6f04b499eff7db776fafae34818d709afe3a", // the everyday analyzer's spelling field
	6: "1d299c3af4e9194837dd114078d7fc1d1bee6b220b24efe0e32de6a4b5e452be", // a raw_text line's send time is no everyday term (and the sample holds such a line)
}

// sampleText holds what the tokenizers read differently: kanji and kana
// spellings, katakana loanwords and names, widths, numbers in digits and
// kanji, times, dates and English, and a raw_text line (spec §5).
const sampleText = "駐車場 ちゅうしゃじょう 買い物 かいもの バル・ソーレ ﾊﾞｰﾍﾞｷｭｰ コンピューター projector プロジェクター " +
	"3,000円 ３０００円 三千円 一等 19時 7:30pm 十二月五日 12/7 Bringing the balls 鍋 なんだっけ\n" +
	"2026-04-10 20:15 A: What time tomorrow?"

// tokenizerOutput hashes the tokens (and, for tokenizers with query
// tokens, the query tokens) of sampleText under every registered tokenizer.
func tokenizerOutput(t *testing.T) string {
	t.Helper()
	h := sha256.New()
	for _, name := range tokenize.Names() {
		tok, err := tokenize.New(name)
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(name + "\x00" + strings.Join(tok.Tokens(sampleText), "\x00") + "\x01"))
		if q, ok := tok.(interface{ QueryTokens(string) []string }); ok {
			h.Write([]byte(strings.Join(q.QueryTokens(sampleText), "\x00") + "\x02"))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestDerivedFormatFollowsTheTokenizers fails when a tokenizer's output
// changes while derivedFormat stays: raise the format (so cached indexes
// are built again) and record the new fingerprint.
func TestDerivedFormatFollowsTheTokenizers(t *testing.T) {
	got := tokenizerOutput(t)
	for format, fp := range tokenizersFingerprints {
		if fp == got && format != derivedFormat {
			t.Errorf("the tokenizers give the output of derivedFormat %d, yet the format is %d", format, derivedFormat)
		}
	}
	if want, ok := tokenizersFingerprints[derivedFormat]; !ok || got != want {
		t.Errorf("the tokenizers' output on the sample (fingerprint %s) is not the one recorded for derivedFormat %d (%q): raise derivedFormat and record the new fingerprint under it",
			got, derivedFormat, want)
	}
}
