package kagome

import (
	"path/filepath"
	"testing"

	"github.com/ikawaha/kagome-dict/ipa"
)

// BenchmarkLoadFast is what a fresh process pays for the dictionary once
// its fast-loading form exists: map the file and decode it (the CRC-32
// pass, the trie's duplicate table, the small gob parts).
//
//	go test ./lib/tokenize/kagome -run '^$' -bench LoadFast -benchmem
func BenchmarkLoadFast(b *testing.B) {
	if !littleEndian() {
		b.Skip("the fast-loading form is little-endian only")
	}
	path := filepath.Join(b.TempDir(), "ipa.bin")
	if err := writeFast(path, &fastDict{dict: ipa.Dict(), feats: featuresOf(ipa.Dict())}); err != nil {
		b.Fatal(err)
	}
	data, err := readShared(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeFast(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMorphemes analyses a question from the fast-loading form.
func BenchmarkMorphemes(b *testing.B) {
	m, err := NewMorphology()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		m.Morphemes("金沢旅行の準備で自分が引き受けたことは何")
	}
}
