// Package workbenchtest builds the small pooled database that the workbench,
// web and command tests share: testdata/workbench/sources ingested, and its
// questions pooled from evidence.jsonl plus the top 3 of raw_text_bm25
// over character bigrams.
package workbenchtest

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/workbench"
)

// Depth, Retriever and Tokenizer are the pool settings of the fixture
// (character bigrams, so that a 14-message history still gives each
// question retriever rows beside its evidence).
const (
	Depth     = 3
	Retriever = "raw_text_bm25"
	Tokenizer = "char-bigram"
)

// Dir is testdata/workbench of the repository.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "workbench")
}

// Ingested returns a fresh database at dir/wb.db holding the fixture's sources.
func Ingested(t testing.TB, dir string) *store.Store {
	t.Helper()
	src := filepath.Join(Dir(), "sources")
	return ingested(t, filepath.Join(dir, "wb.db"), filepath.Join(src, "chat_mika.json"), filepath.Join(src, "club.json"))
}

// Pooled returns Ingested with the fixture's questions pooled.
func Pooled(t testing.TB, dir string) (*store.Store, workbench.PoolReport) {
	t.Helper()
	st := Ingested(t, dir)
	qs, err := workbench.ReadQuestionsFile(filepath.Join(Dir(), "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	evPath := filepath.Join(Dir(), "evidence.jsonl")
	ev, err := gold.ReadEvidenceFile(evPath)
	if err != nil {
		t.Fatal(err)
	}
	return st, pool(t, st, workbench.PoolOptions{Questions: qs, Evidence: ev, EvidenceFile: evPath, Depth: Depth})
}

// ingested opens a fresh database at dbPath, closed when the test ends, and
// ingests the source files into it with the default chunking.
func ingested(t testing.TB, dbPath string, sources ...string) *store.Store {
	t.Helper()
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, path := range sources {
		if _, err := ingest.File(st, path, chunking.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// pool pools opt's questions in st with Retriever over Tokenizer.
func pool(t testing.TB, st *store.Store, opt workbench.PoolOptions) workbench.PoolReport {
	t.Helper()
	chunks, err := st.Chunks()
	if err != nil {
		t.Fatal(err)
	}
	opt.Retrievers = []string{Retriever}
	opt.Builder = retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks}, st, retrieval.Options{Tokenizer: Tokenizer})
	rep, err := workbench.Open(st).Pool(opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
