package study_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/study"
)

// Prepare ingests the conformance pack's sources into a new database, reads
// its summaries, questions and shipped qrels, and imports its shipped
// vectors; every file read is listed with its hash, a source under its
// position (SourceLabel) rather than its name.
func ExamplePrepare() {
	dir, err := os.MkdirTemp("", "study")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	s, err := study.Prepare(study.PaperOptions(conformance.Dir(), filepath.Join(dir, "conf.db")))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	fmt.Println(len(s.Chunks), "chunks,", len(s.Questions), "questions,", s.EmbedModel)
	fmt.Println(s.GoldReport)
	for _, in := range s.Inputs {
		fmt.Println(in.Path)
	}
	// Output:
	// 14 chunks, 9 questions, data-vectors
	// qrels.txt as shipped
	// sources/#001
	// sources/#002
	// sources/#003
	// summaries.jsonl
	// questions.jsonl
	// qrels.txt
	// vectors_summary.jsonl
	// vectors_embedding_text.jsonl
	// query_vectors.jsonl
}
