package bm25_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/bm25"
)

// TestWriteToRead checks that an index read back from WriteTo's bytes gives
// the same hits (IDs, scores, order) and explanations as the original, and
// that damaged or foreign input is an error.
func TestWriteToRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	words := []string{"a", "b", "c", "d", "e", "f", "g", "h", "猫", "犬"}
	docs := make([]bm25.Doc, 200)
	for i := range docs {
		var text []byte
		for range rng.IntN(12) {
			text = append(text, words[rng.IntN(len(words))]...)
			text = append(text, ' ')
		}
		// Few distinct StartAt values, so ties reach the ID tie-break.
		docs[i] = bm25.Doc{ID: fmt.Sprintf("c%03d", rng.IntN(1000)), StartAt: fmt.Sprintf("2024-01-0%d", rng.IntN(3)), Text: string(text)}
	}
	for _, tc := range []struct {
		name string
		docs []bm25.Doc
	}{{"empty", nil}, {"random", docs}} {
		t.Run(tc.name, func(t *testing.T) {
			orig := bm25.New(tc.docs, fields{})
			var buf bytes.Buffer
			if _, err := orig.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			read, err := bm25.Read(bytes.NewReader(buf.Bytes()), fields{})
			if err != nil {
				t.Fatal(err)
			}
			if read.Len() != orig.Len() || read.AvgDocLen() != orig.AvgDocLen() {
				t.Errorf("N, avgdl = %d, %v; want %d, %v", read.Len(), read.AvgDocLen(), orig.Len(), orig.AvgDocLen())
			}
			for _, q := range []string{"a", "a b", "猫 犬 a a", "zzz", "", "h g f e d c b a"} {
				for _, k := range []int{0, 1, 5} {
					if got, want := read.Search(q, k), orig.Search(q, k); !reflect.DeepEqual(got, want) {
						t.Errorf("Search(%q, %d) = %v, want %v", q, k, got, want)
					}
				}
				for _, d := range tc.docs[:min(3, len(tc.docs))] {
					if got, want := read.Explain(q, d.ID).String(), orig.Explain(q, d.ID).String(); got != want {
						t.Errorf("Explain(%q, %s) = %s, want %s", q, d.ID, got, want)
					}
				}
			}
			b := buf.Bytes()
			for name, bad := range map[string][]byte{
				"truncated":  b[:len(b)-1],
				"extra byte": append(bytes.Clone(b), 0),
				"not index":  []byte("hello, world"),
			} {
				if _, err := bm25.Read(bytes.NewReader(bad), fields{}); err == nil {
					t.Errorf("%s: Read gave no error", name)
				}
			}
			if _, err := bm25.Read(bytes.NewReader(b), other{}); err == nil {
				t.Error("Read with another tokenizer gave no error")
			}
		})
	}
}

type other struct{ fields }

func (other) Name() string { return "other" }
