package kagome

import (
	"fmt"
	"sync"

	"github.com/ikawaha/kagome/v2/tokenizer"
)

// Morpheme is one morpheme of an analysed text.
type Morpheme struct {
	Surface    string
	Start, End int      // bytes of the analysed text
	POS        []string // part-of-speech path, e.g. 名詞, 一般, *, *; shared, do not change
	Base       string   // dictionary base form (食べ → 食べる); "" when the dictionary has none
	Reading    string   // katakana reading (駐車 → チュウシャ); "" when the dictionary has none
	Known      bool     // found in the dictionary (not guessed by the unknown-word rules)
}

// Morphology analyses Japanese with kagome and the IPA dictionary in search
// mode, loaded from the fast-loading form (fastdict.go): a few tens of
// milliseconds in a fresh process once the form exists, against about half
// a second for the zipped dictionary. It is safe for concurrent use.
type Morphology struct {
	analyzer *tokenizer.Tokenizer
	feats    *features
	unkPOS   [][]string // by unknown-word ID
}

var sharedMorphology struct {
	once sync.Once
	m    *Morphology
	err  error
}

// NewMorphology returns the analysis, loading the dictionary once per
// process.
func NewMorphology() (*Morphology, error) {
	sharedMorphology.once.Do(func() {
		fd, err := loadFast()
		if err != nil {
			sharedMorphology.err = err
			return
		}
		a, err := tokenizer.New(fd.dict, tokenizer.OmitBosEos())
		if err != nil {
			sharedMorphology.err = fmt.Errorf("kagome: %w", err)
			return
		}
		m := &Morphology{analyzer: a, feats: fd.feats}
		for _, c := range fd.dict.UnkDict.Contents {
			m.unkPOS = append(m.unkPOS, c[:min(4, len(c))])
		}
		sharedMorphology.m = m
	})
	return sharedMorphology.m, sharedMorphology.err
}

// Morphemes returns the morphemes of text in order (kagome's search mode,
// which splits long compounds: 関西国際空港 → 関西, 国際, 空港). The text is
// analysed as given: normalise it first.
func (m *Morphology) Morphemes(text string) []Morpheme {
	toks := m.analyzer.Analyze(text, tokenizer.Search)
	out := make([]Morpheme, 0, len(toks))
	for _, t := range toks {
		if t.Surface == "" {
			continue
		}
		mo := Morpheme{Surface: t.Surface, Start: t.Position, End: t.Position + len(t.Surface)}
		switch t.Class {
		case tokenizer.KNOWN:
			mo.Known = true
			mo.POS = m.feats.pos[m.feats.posOf[t.ID]]
			mo.Base, mo.Reading = m.feats.base(t.ID), m.feats.reading(t.ID)
		case tokenizer.UNKNOWN:
			if t.ID < len(m.unkPOS) {
				mo.POS = m.unkPOS[t.ID]
			}
		}
		out = append(out, mo)
	}
	return out
}
