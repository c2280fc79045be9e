package beyond_test

import (
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/retrieval"
)

func TestRemedyNames(t *testing.T) {
	base := "hybrid:embedding_text_bm25+embedding_text_vector@0.45"
	want := []string{base, "mmr:" + base + "@0.90", "period:" + base + "@0.15"}
	got := beyond.RemedyNames(base)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("RemedyNames = %q, want %q", got, want)
	}
	for _, n := range got {
		s, err := retrieval.ParseName(n)
		if err != nil || s.String() != n {
			t.Errorf("%s: ParseName → %q, %v", n, s.String(), err)
		}
	}
}
