package benchmark

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/datafolder"
)

// A vector line holds each component in the shortest form that reads back
// as the same float32.
func TestWriteVectorLine(t *testing.T) {
	for _, tc := range []struct {
		key  string
		vec  []float32
		want string
	}{
		{"c1", []float32{0.1, -2, 0}, `{"key":"c1","vector":[0.1,-2,0]}` + "\n"},
		{`a "quoted" key`, nil, `{"key":"a \"quoted\" key","vector":[]}` + "\n"},
		{"q", []float32{1.0 / 3}, `{"key":"q","vector":[0.33333334]}` + "\n"},
	} {
		var b strings.Builder
		writeVectorLine(&b, tc.key, tc.vec)
		if got := b.String(); got != tc.want {
			t.Errorf("writeVectorLine(%q, %v) = %q, want %q", tc.key, tc.vec, got, tc.want)
		}
	}
}

func TestJSONLKeys(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	if err := os.WriteFile(good, []byte("{\"chunk_id\":\"a\"}\n\n{\"chunk_id\":\"b\",\"x\":1}\n{\"other\":\"c\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	if err := jsonlKeys(good, "chunk_id", keys); err != nil {
		t.Fatal(err)
	}
	if want := map[string]bool{"a": true, "b": true}; !maps.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"chunk_id\":\"a\"}\nnot json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := jsonlKeys(bad, "chunk_id", map[string]bool{}); err == nil || !strings.Contains(err.Error(), bad+":2:") {
		t.Errorf("error %v, want one naming %s:2", err, bad)
	}
}

// dataset.json keeps the conversion's provenance; its user list becomes a
// count.
func TestWriteDatasetInfo(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	in := `{"dataset":"locomo","users":["conv-26","conv-30","conv-41"],"questions":3}`
	if err := os.WriteFile(filepath.Join(data, datafolder.DatasetFile), []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	path, err := WriteDatasetInfo(data, out)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"dataset": "locomo", "users": float64(3), "questions": float64(3)}
	if !maps.Equal(got, want) {
		t.Errorf("%s holds %v, want %v", path, got, want)
	}
	if _, err := WriteDatasetInfo(t.TempDir(), out); err == nil || !strings.Contains(err.Error(), "datasets convert") {
		t.Errorf("missing dataset.json: error %v, want one naming the command that writes it", err)
	}
}
