package bm25_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/tokenize/tokenizetest"
)

// TestHoldsAndTogether checks Holds and Together on an index as built and
// as opened from its bytes.
func TestHoldsAndTogether(t *testing.T) {
	built := bm25.New([]bm25.Doc{
		{ID: "a", Text: "tea cake"},
		{ID: "b", Text: "tea jam"},
		{ID: "c", Text: "cake jam scone"},
	}, tokenizetest.Fields{})
	var buf bytes.Buffer
	if _, err := built.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	opened, err := bm25.Open(buf.Bytes(), tokenizetest.Fields{})
	if err != nil {
		t.Fatal(err)
	}
	for name, ix := range map[string]*bm25.Index{"built": built, "opened": opened} {
		for _, c := range []struct {
			doc   string
			terms []string
			holds []bool
		}{
			{"a", []string{"tea", "jam", "cake"}, []bool{true, false, true}},
			{"c", []string{"scone", "tea"}, []bool{true, false}},
			{"z", []string{"tea"}, []bool{false}}, // not in the index
		} {
			if got := ix.Holds(c.doc, c.terms); !slices.Equal(got, c.holds) {
				t.Errorf("%s: Holds(%s, %v) = %v, want %v", name, c.doc, c.terms, got, c.holds)
			}
		}
		for _, c := range []struct {
			terms []string
			want  bool
		}{
			{[]string{"tea", "cake"}, true},          // a
			{[]string{"jam", "scone", "cake"}, true}, // c
			{[]string{"tea", "scone"}, false},        // each somewhere, never together
			{[]string{"tea", "tea", "jam"}, true},    // a term twice counts once: b
			{[]string{"tea", "jam", "cake"}, false},  // two of three in each of a, b, c
			{[]string{"tea", "nowhere"}, false},      // a term in no document
			{nil, false},                             // no terms
		} {
			if got := ix.Together(c.terms); got != c.want {
				t.Errorf("%s: Together(%v) = %v, want %v", name, c.terms, got, c.want)
			}
		}
	}
}
