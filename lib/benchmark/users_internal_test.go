package benchmark

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
