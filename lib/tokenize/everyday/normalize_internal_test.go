package everyday

import "testing"

// TestClassify: the class of a normalised character at the edges of each
// range classify names.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		r    rune
		want class
	}{
		{'a', letter}, {'z', letter}, {'A', letter}, {'Z', letter}, {'@', other}, {'[', other}, {'`', other}, {'{', other},
		{'0', digit}, {'9', digit}, {'/', other}, {':', other},
		{0x0080, other},                                                                                      // a C1 control, the first rune past ASCII
		{'ァ', katakana}, {'ヺ', katakana}, {'ヽ', katakana}, {'ヾ', katakana}, {0x30A0, other}, {0x30FB, other}, // ゠ and ・
		{'ー', other}, {0x309B, other}, {0x309C, other}, // ー joins the run before it; ゛ ゜
		{'ぁ', cjk}, {0x3096, cjk}, {'ゝ', cjk}, {'々', cjk}, {'〆', cjk}, {'〇', cjk}, {'漢', cjk}, {'한', cjk},
		{'ㇰ', katakana}, // katakana phonetic extension
		{'é', letter}, {'ω', letter}, {0x0301, mark}, {'٣', digit}, {'😀', other},
	} {
		if got := classify(c.r); got != c.want {
			t.Errorf("classify(%U %q) = %d, want %d", c.r, c.r, got, c.want)
		}
	}
}

// TestIsKanaIsHanToKatakana: the edges of the kana and kanji ranges, and
// hiragana mapped to katakana 0x60 code points on.
func TestIsKanaIsHanToKatakana(t *testing.T) {
	for _, c := range []struct {
		r            rune
		kana, han    bool
		katakanaForm rune
	}{
		{0x3040, false, false, 0x3040}, // unassigned, before ぁ
		{'ぁ', true, false, 'ァ'},
		{'ゖ', true, false, 'ヶ'},
		{0x3097, false, false, 0x3097}, // unassigned, after ゖ
		{'ゝ', true, false, 'ヽ'},
		{'ゞ', true, false, 'ヾ'},
		{0x309F, false, false, 0x309F}, // ゟ, a digraph: no kana of its own
		{0x30A0, false, false, 0x30A0}, // ゠
		{'ァ', true, false, 'ァ'},
		{'ヺ', true, false, 'ヺ'},
		{0x30FB, false, false, 0x30FB}, // ・
		{'ー', true, false, 'ー'},
		{'ヽ', true, false, 'ヽ'},
		{'ヾ', true, false, 'ヾ'},
		{0x30FF, false, false, 0x30FF}, // ヿ
		{'々', false, true, '々'},
		{'〆', false, true, '〆'},
		{'〇', false, true, '〇'},       // a kanji numeral, Han script
		{0x2E80, false, true, 0x2E80}, // ⺀, the first CJK radical
		{'漢', false, true, '漢'},
		{'a', false, false, 'a'},
	} {
		if got := isKana(c.r); got != c.kana {
			t.Errorf("isKana(%U) = %v, want %v", c.r, got, c.kana)
		}
		if got := isHan(c.r); got != c.han {
			t.Errorf("isHan(%U) = %v, want %v", c.r, got, c.han)
		}
		if got := toKatakana(c.r); got != c.katakanaForm {
			t.Errorf("toKatakana(%U) = %U, want %U", c.r, got, c.katakanaForm)
		}
	}
}
