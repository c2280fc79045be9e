package report_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/lib/report"
)

func TestWriteJSON(t *testing.T) {
	type manifest struct {
		Seed       int               `json:"seed"`
		Tokenizer  string            `json:"tokenizer"`
		DataHashes map[string]string `json:"data_hashes"`
	}
	v := manifest{
		Seed:       12345,
		Tokenizer:  "kagome <ipa> & bigram",
		DataHashes: map[string]string{"qrels.txt": "b2", "questions.jsonl": "a1", "chunks": "c3"},
	}
	path := filepath.Join(t.TempDir(), "manifest.json")
	if err := report.WriteJSON(path, v); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "seed": 12345,
  "tokenizer": "kagome <ipa> & bigram",
  "data_hashes": {
    "chunks": "c3",
    "qrels.txt": "b2",
    "questions.jsonl": "a1"
  }
}
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	if err := report.WriteJSON(path, map[string]any{"f": func() {}}); err == nil {
		t.Error("unencodable value: no error")
	}
}
