package retrieval_test

import (
	"testing"

	"github.com/linemem/linemem/lib/retrieval"
)

func TestSingleShortLabelsMatchThePaperPairings(t *testing.T) {
	want := map[string]string{
		"raw_text_bm25": "R-BM25", "raw_text_vector": "R-Vec",
		"summary_bm25": "S-BM25", "summary_vector": "S-Vec",
		"embedding_text_bm25": "E-BM25", "embedding_text_vector": "E-Vec",
	}
	singles := retrieval.Singles()
	if len(singles) != len(want) {
		t.Fatalf("Singles() has %d retrievers, want %d", len(singles), len(want))
	}
	for _, s := range singles {
		if got := s.Short(); got != want[s.Name()] {
			t.Errorf("%s.Short() = %q, want %q", s.Name(), got, want[s.Name()])
		}
	}
	for _, p := range retrieval.PaperPairings {
		if got := p.BM25.Short() + "+" + p.Vector.Short(); got != p.Label {
			t.Errorf("pairing %s: labels of its parts give %q", p.Label, got)
		}
	}
}
