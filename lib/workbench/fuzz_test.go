package workbench_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/internal/workbenchtest"
	"github.com/linemem/linemem/lib/workbench"
)

// FuzzImportJudgments: any bytes given to ImportJudgments either import
// (every row then reads back) or fail with nothing stored: the annotators'
// rows are the same before and after a failed import. It never panics.
func FuzzImportJudgments(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join(workbenchtest.Dir(), "judgments_a.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"qid":"w1","chunk_id":"3517b99b5cd88eba","rel":2,"annotator":"B","blind":true,"seconds":3.5}` + "\n"))
	f.Add([]byte(`{"qid":"w1","chunk_id":"3517b99b5cd88eba","rel":7,"annotator":"B"}` + "\n"))
	f.Add([]byte(`{"qid":"nope","chunk_id":"x","rel":1,"annotator":"B"}`))
	f.Add([]byte("\xef\xbb\xbf" + `{"qid":"w1","chunk_id":"3517b99b5cd88eba","rel":1,"annotator":"C"}`))
	f.Add([]byte(`{"qid":"w1","chunk_id":"3517b99b5cd88eba","rel":NaN,"annotator":"B"}`))
	f.Add(bytes.Repeat([]byte("["), 10000))
	st, _ := workbenchtest.Pooled(f, f.TempDir())
	b := workbench.Open(st)
	rows := func(t *testing.T) int {
		names, err := b.Annotators()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, a := range names {
			js, err := b.Judgments(a)
			if err != nil {
				t.Fatal(err)
			}
			n += len(js)
		}
		return n
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		before := rows(t)
		rep, err := b.ImportJudgments("fuzz.jsonl", bytes.NewReader(data))
		after := rows(t)
		if err != nil {
			if after != before {
				t.Fatalf("a failed import (%v) changed the rows: %d → %d", err, before, after)
			}
			return
		}
		if rep.Rows < 0 || after < before {
			t.Fatalf("import of %d rows: rows %d → %d", rep.Rows, before, after)
		}
	})
}
