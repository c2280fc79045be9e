package memory_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
)

// ingestDir ingests every LINE export under dir into st.
func ingestDir(t *testing.T, st *store.Store, dir string) {
	t.Helper()
	inputs, problems := ingest.Collect([]string{dir})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	ingest.Files(st, inputs, chunking.DefaultOptions(), func(_ int, _ ingest.Input, _ ingest.Report, err error) {
		if err != nil {
			t.Fatal(err)
		}
	})
}

// rankings searches every question with the everyday defaults and returns
// each ranking's chunk IDs, the chunks of the source skip left out.
func rankings(t *testing.T, st *store.Store, qs []questions.Question, skip string) (retriever string, out [][]string) {
	t.Helper()
	m, err := memory.Open(st, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		resp, err := m.Search(context.Background(), memory.Query{Text: q.Question, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range resp.Results {
			if r.Source != skip {
				ids = append(ids, r.ChunkID)
			}
		}
		out = append(out, ids)
	}
	return m.Retriever(), out
}

// TestDefaultStableWhenAChatHasNoSummary ingests a 4-message chat without a
// summary into the summarised synthetic memory: the default keeps each
// other chunk's text, so the others' rankings do not change.
func TestDefaultStableWhenAChatHasNoSummary(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "me.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	synthetic := filepath.Join("..", "..", "data", "synthetic")
	ingestDir(t, st, filepath.Join(synthetic, "sources"))
	f, err := os.Open(filepath.Join(synthetic, "summaries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := st.ImportSummaries(f.Name(), f); err != nil {
		t.Fatal(err)
	}
	qs, err := questions.ReadFile(filepath.Join(synthetic, "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	qs = qs[:20]
	before, want := rankings(t, st, qs, "")
	if before != "embedding_text_bm25" {
		t.Fatalf("summarised memory: retriever %s, want embedding_text_bm25", before)
	}

	dir := t.TempDir()
	name := "[LINE] 新しいトーク.txt"
	chat := "[LINE] 新しいトークのトーク履歴\n保存日時：2024/06/01 22:00\n\n2024/05/03(金)\n" +
		"09:00\t自分\tおはよー\n09:03\tみく\t週末ひま？\n09:06\t自分\tひまだよ\n09:09\tみく\tじゃあ映画いこ\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(chat), 0o600); err != nil {
		t.Fatal(err)
	}
	ingestDir(t, st, dir)
	after, got := rankings(t, st, qs, name)
	if after != "everyday_text_bm25" {
		t.Errorf("one chat without summary: retriever %s, want everyday_text_bm25", after)
	}
	for i, q := range qs {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("%s %q: ranking of the summarised chunks changed:\n got %v\nwant %v", q.QID, q.Question, got[i], want[i])
		}
	}
}

// TestBM25ParamsFollowTheTokenizer checks that an everyday memory scores
// with DefaultBM25, or Options.BM25 when given, and a memory under the
// paper's tokenizer (as `reproduce` opens one) with spec §9's parameters,
// as the score explanation of the first result states them.
func TestBM25ParamsFollowTheTokenizer(t *testing.T) {
	st := mixedStore(t)
	other := bm25.Params{K1: 1.5, B: 0.3}
	for _, c := range []struct {
		name string
		opts memory.Options
		want bm25.Params
	}{
		{"everyday default", memory.Options{}, memory.DefaultBM25()},
		{"everyday, given", memory.Options{BM25: other}, other},
		{"paper tokenizer", memory.Options{Tokenizer: tokenize.Default}, bm25.SpecParams()},
		{"paper tokenizer, given", memory.Options{Tokenizer: tokenize.Default, BM25: other}, bm25.SpecParams()},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := memory.Open(st, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := m.Search(context.Background(), memory.Query{Text: "沖縄 ホテル", K: 1})
			if err != nil || len(resp.Results) == 0 {
				t.Fatalf("search: %v, %d results", err, len(resp.Results))
			}
			e, ok, err := m.Explain("沖縄 ホテル", resp.Results[0])
			if err != nil || !ok {
				t.Fatalf("explain: %v, %v", ok, err)
			}
			norm := fmt.Sprintf("K1 = %g, B = %g,", c.want.K1, c.want.B)
			if s := e.String(); !strings.Contains(s, norm) {
				t.Errorf("explanation holds no %q:\n%s", norm, s)
			}
		})
	}
}
