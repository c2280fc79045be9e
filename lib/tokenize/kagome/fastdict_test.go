package kagome

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ikawaha/kagome-dict/ipa"
	"github.com/ikawaha/kagome/v2/tokenizer"
)

// TestFastDictRoundTrip writes the fast-loading form, reads it back and
// checks that the analysis from it equals the analysis from the zipped
// dictionary, features included, and that a damaged file is refused.
func TestFastDictRoundTrip(t *testing.T) {
	if !littleEndian() {
		t.Skip("the fast-loading form is little-endian only")
	}
	full := &fastDict{dict: ipa.Dict(), feats: featuresOf(ipa.Dict())}
	path := filepath.Join(t.TempDir(), "ipa.bin")
	if err := writeFast(path, full); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fast, err := decodeFast(data)
	if err != nil {
		t.Fatal(err)
	}
	analysis := func(fd *fastDict) *Morphology {
		a, err := tokenizer.New(fd.dict, tokenizer.OmitBosEos())
		if err != nil {
			t.Fatal(err)
		}
		m := &Morphology{analyzer: a, feats: fd.feats}
		for _, c := range fd.dict.UnkDict.Contents {
			m.unkPOS = append(m.unkPOS, c[:min(4, len(c))])
		}
		return m
	}
	want, got := analysis(full), analysis(fast)
	for _, text := range []string{
		"関西国際空港で買い物した",
		"ちゅうしゃじょうにとめたよ",
		"コンピューターとチョコレート、ｶﾀｶﾅとＡＢＣ",
		"昭島のモリパークのとこ、19時まで使えるって",
		"",
	} {
		if w, g := want.Morphemes(text), got.Morphemes(text); !reflect.DeepEqual(w, g) {
			t.Errorf("%q: from the fast form %+v, from the zip %+v", text, g, w)
		}
	}
	// Every morpheme's base form and reading as kagome's own features give them.
	tok, err := tokenizer.New(ipa.Dict(), tokenizer.OmitBosEos())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range tok.Analyze("駐車場に車を停めて買い物に行った", tokenizer.Search) {
		base, _ := k.BaseForm()
		reading, _ := k.Reading()
		if base == "*" {
			base = ""
		}
		if reading == "*" {
			reading = ""
		}
		if k.Class == tokenizer.KNOWN && (fast.feats.base(k.ID) != base || fast.feats.reading(k.ID) != reading) {
			t.Errorf("%s: base %q reading %q, kagome says %q %q", k.Surface, fast.feats.base(k.ID), fast.feats.reading(k.ID), base, reading)
		}
	}

	data[len(data)/2] ^= 0xFF
	if _, err := decodeFast(data); err == nil {
		t.Error("a damaged file was read")
	}
	if _, err := decodeFast(data[:100]); err == nil {
		t.Error("a cut file was read")
	}
}
