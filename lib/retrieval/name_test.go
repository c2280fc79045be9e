package retrieval_test

import (
	"testing"

	"github.com/linemem/linemem/lib/retrieval"
)

func TestParseNamesAndNeedsVectors(t *testing.T) {
	names := []string{"raw_text_bm25", "summary_vector", "rrf:summary_bm25+summary_vector", "mmr:embedding_text_bm25@0.90", "period:hybrid:summary_bm25+summary_vector@0.50@0.15"}
	want := []bool{false, true, true, false, true}
	specs, err := retrieval.ParseNames(names)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range specs {
		if s.String() != names[i] || s.NeedsVectors() != want[i] {
			t.Errorf("%s: parsed %s, NeedsVectors %v; want the name back and %v", names[i], s, s.NeedsVectors(), want[i])
		}
	}
	if _, err := retrieval.ParseNames([]string{"raw_text_bm25", "chat_bm25"}); err == nil {
		t.Error("an unknown name gave no error")
	}
}

// TestEverydayTextIsBM25Only: everyday search's representation parses as a
// BM25 retriever and never as a vector one (no vectors are stored for it).
func TestEverydayTextIsBM25Only(t *testing.T) {
	s, err := retrieval.ParseName("everyday_text_bm25")
	if err != nil || s.String() != "everyday_text_bm25" || s.NeedsVectors() {
		t.Errorf("everyday_text_bm25: %v, %v", s, err)
	}
	if _, err := retrieval.ParseName("everyday_text_vector"); err == nil {
		t.Error("everyday_text_vector parsed")
	}
}
