package everyday

import "strings"

// The loanword field: a katakana word and a Latin word that sound alike
// share a key (プロジェクター = projector = PRSKT, ベジタリアン = vegetarian,
// カーテン = curtain), so a question in one script finds a word written in
// the other. A document indexes a katakana word's key under KatakanaKeyPrefix
// and an English word's under LatinKeyPrefix; a question looks for each of
// its words' keys under the other script's prefix (AnalyzeQuestion), so a
// key never joins two words of one script: "class" does not find
// "clothes", which has the same key, while クラス finds "class".
const (
	KatakanaKeyPrefix = "p:"
	LatinKeyPrefix    = "e:"
)

// MinPhoneticKey is the fewest consonants a loanword key holds: shorter
// keys (コート and cat, ズーム and seminar's ゼミ) sound alike by chance.
const MinPhoneticKey = 3

// Consonant classes of a loanword key: the consonant rows of the kana
// syllabary, which is what an English word keeps when it is borrowed.
// The s, z, sh and j sounds are one class (ジ is both ji and zi, and an
// English s between vowels is often z: present = プレゼント); y and w,
// vowels, the long-vowel mark and the small ッ of a doubled consonant
// leave no trace.
const (
	classK = 'K' // カ行, English k, hard c, q
	classG = 'G' // ガ行, hard g
	classS = 'S' // サ行 and ザ行 (シ, ジ, ズ), English s, z, sh, j, soft c and g, th
	classT = 'T' // タ行 (チ, ツ), English t, ch, ts
	classD = 'D' // ダ行 d
	classN = 'N' // ナ行 and ン, English n and m before b or p
	classH = 'H' // ハ行 (フ), English h, f, ph
	classB = 'B' // バ行 and ヴ, English b and v
	classP = 'P' // パ行 p
	classM = 'M' // マ行 m
	classR = 'R' // ラ行, English l and r before a vowel
)

// kanaClass maps each katakana with a consonant to its class.
var kanaClass = func() map[rune]rune {
	m := map[rune]rune{}
	for class, kana := range map[rune]string{
		classK: "カキクケコヵヶ", classG: "ガギグゲゴ", classS: "サシスセソザジズゼゾヂヅ",
		classT: "タチツテト", classD: "ダデド", classN: "ナニヌネノン", classH: "ハヒフヘホ",
		classB: "バビブベボヴ", classP: "パピプペポ", classM: "マミムメモ", classR: "ラリルレロ",
	} {
		for _, r := range kana {
			m[r] = class
		}
	}
	return m
}()

// katakanaKey is the loanword key of a katakana word: the classes of its
// kana in order, a class repeated at once kept once (ビッグ: B G).
func katakanaKey(w string) string {
	var key []rune
	for _, r := range w {
		if c, ok := kanaClass[r]; ok {
			key = appendClass(key, c)
		}
	}
	return string(key)
}

// latinKey is the loanword key of a lower-case Latin word, read as an
// English word is read into katakana: vowels, y, w and a silent gh leave no
// trace; ch, tch → T; sh, th, j, z, s → S; ph, f, h → H; ck, k, q, hard c
// → K; c and g before e, i or y → S; ds → S (ポッズ); ts → T (キャッツ);
// tion and sion → S N; x → K S; v → B; l → R; r → R only before a vowel
// (curtain = カーテン: no r); m before b or p → N (camp = キャンプ); doubled
// letters count once.
func latinKey(w string) string {
	vowel := func(i int) bool { return i < len(w) && strings.IndexByte("aeiouy", w[i]) >= 0 }
	at := func(i int) byte {
		if i < len(w) {
			return w[i]
		}
		return 0
	}
	var key []rune
	for i := 0; i < len(w); i++ {
		c := w[i]
		if i > 0 && c == w[i-1] {
			continue
		}
		switch {
		case strings.IndexByte("aeiouyw", c) >= 0:
		case strings.HasPrefix(w[i:], "tch"):
			key, i = appendClass(key, classT), i+2
		case strings.HasPrefix(w[i:], "tion"), strings.HasPrefix(w[i:], "sion"):
			key, i = appendClass(appendClass(key, classS), classN), i+3
		case c == 'c' && at(i+1) == 'h':
			key, i = appendClass(key, classT), i+1
		case (c == 's' || c == 't') && at(i+1) == 'h':
			key, i = appendClass(key, classS), i+1
		case c == 'p' && at(i+1) == 'h':
			key, i = appendClass(key, classH), i+1
		case c == 'g' && at(i+1) == 'h':
			i++
		case c == 'c' && at(i+1) == 'k':
			key, i = appendClass(key, classK), i+1
		case c == 'd' && at(i+1) == 's' && !vowel(i+2):
			key, i = appendClass(key, classS), i+1
		case c == 't' && at(i+1) == 's' && !vowel(i+2):
			key, i = appendClass(key, classT), i+1
		case c == 'c' || c == 'g':
			switch {
			case strings.IndexByte("eiy", at(i+1)) >= 0:
				key = appendClass(key, classS)
			case c == 'c':
				key = appendClass(key, classK)
			default:
				key = appendClass(key, classG)
			}
		case c == 'x':
			key = appendClass(appendClass(key, classK), classS)
		case c == 'r':
			if vowel(i + 1) {
				key = appendClass(key, classR)
			}
		case c == 'm' && (at(i+1) == 'b' || at(i+1) == 'p'):
			key = appendClass(key, classN)
		default:
			if class, ok := latinClass[c]; ok {
				key = appendClass(key, class)
			}
		}
	}
	return string(key)
}

// latinClass is the class of a single Latin consonant (latinKey reads the
// pairs first).
var latinClass = map[byte]rune{
	'k': classK, 'q': classK, 's': classS, 'z': classS, 'j': classS, 't': classT, 'd': classD,
	'n': classN, 'h': classH, 'f': classH, 'b': classB, 'v': classB, 'p': classP, 'm': classM, 'l': classR,
}

func appendClass(key []rune, c rune) []rune {
	if n := len(key); n > 0 && key[n-1] == c {
		return key
	}
	return append(key, c)
}

// phonetic returns the loanword term of a key under prefix, "" when the
// key is shorter than MinPhoneticKey.
func phonetic(prefix, key string) string {
	if len(key) < MinPhoneticKey {
		return ""
	}
	return prefix + key
}
