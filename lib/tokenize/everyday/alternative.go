package everyday

import "strings"

// alternativeFields are the fields whose keys offer another spelling of a
// word (the loanword and spelling fields), each with the field of the
// other script, where a question looks for its keys (AnalyzeQuestion), the
// key's weight in a question (Weight) and the field's name (FieldName).
var alternativeFields = []struct {
	prefix, other string
	weight        int
	name          string
}{
	{KatakanaKeyPrefix, LatinKeyPrefix, PhoneticWeight, "loanword key: the sound of a katakana word"},
	{LatinKeyPrefix, KatakanaKeyPrefix, PhoneticWeight, "loanword key: the sound of an English word"},
	{KatakanaSpellingPrefix, ReadingSpellingPrefix, SpellingWeight, "spelling key: a katakana word as written"},
	{ReadingSpellingPrefix, KatakanaSpellingPrefix, SpellingWeight, "spelling key: the reading of a kanji or hiragana word"},
}

// alternativeField returns the index in alternativeFields of term's field
// and the key after its prefix; -1 when term is no such key.
func alternativeField(term string) (int, string) {
	for i, f := range alternativeFields {
		if key, ok := strings.CutPrefix(term, f.prefix); ok {
			return i, key
		}
	}
	return -1, ""
}

// Alternative reports whether term only offers another spelling of a word
// of a question (a loanword key or a spelling key): it counts where a text
// holds it, and a text that does not is not missing the word for it
// (memory.ConfidenceOf).
func Alternative(term string) bool {
	i, _ := alternativeField(term)
	return i >= 0
}

// otherScript turns a loanword or spelling key of one script into the key
// of the other (p: ↔ e:, k: ↔ j:); any other term is returned as it is.
func otherScript(term string) string {
	i, key := alternativeField(term)
	if i < 0 {
		return term
	}
	return alternativeFields[i].other + key
}
