package datasets_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/datasets"
)

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// archive is a repository .tar.gz with two dialogue files (pretty-printed)
// and a licence below a top folder.
func archive(t *testing.T) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for name, body := range map[string]string{
		"repo-abc/real_persona_chat/dialogues/00002.json": "{\n  \"dialogue_id\": 2\n}\n",
		"repo-abc/real_persona_chat/dialogues/00001.json": "{\n  \"dialogue_id\": 1,\n  \"text\": \"こんにちは\"\n}\n",
		"repo-abc/LICENSE": "licence\n",
	} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	zw.Close()
	return b.Bytes()
}

func TestFetchChecksArchiveAndRawFiles(t *testing.T) {
	body := archive(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/repo.tar.gz":
			w.Write(body)
		case "/raw.json":
			w.Write([]byte("[]\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	// The assembled dialogues: files in name order, compacted, one a line.
	jsonl := "{\"dialogue_id\":1,\"text\":\"こんにちは\"}\n{\"dialogue_id\":2}\n"
	datasets.Sources["test"] = datasets.FetchSource{Archive: srv.URL + "/repo.tar.gz",
		Members: map[string]string{"t/dialogues.jsonl.gz": "", "t/LICENSE": "LICENSE"},
		Raw:     map[string]string{"t/raw.json": srv.URL + "/raw.json"}}
	datasets.Pinned["test"] = []datasets.PinnedFile{{"t/dialogues.jsonl.gz", sha([]byte(jsonl))}, {"t/LICENSE", sha([]byte("licence\n"))}, {"t/raw.json", sha([]byte("[]\n"))}}
	defer delete(datasets.Sources, "test")
	defer delete(datasets.Pinned, "test")
	dir := t.TempDir()
	written, err := datasets.Fetch(context.Background(), srv.Client(), "test", dir)
	if err != nil || len(written) != 3 {
		t.Fatalf("Fetch: %v, %v", written, err)
	}
	gz, _ := os.ReadFile(filepath.Join(dir, "t", "dialogues.jsonl.gz"))
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	got.ReadFrom(zr)
	if got.String() != jsonl {
		t.Errorf("dialogues = %q, want %q", got.String(), jsonl)
	}

	// A file whose sha256 differs is refused and not written.
	datasets.Pinned["test"][1].SHA256 = strings.Repeat("0", 64)
	dir2 := t.TempDir()
	if _, err := datasets.Fetch(context.Background(), srv.Client(), "test", dir2); err == nil || !strings.Contains(err.Error(), "expected "+strings.Repeat("0", 64)) {
		t.Errorf("mismatch: error %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir2, "t", "LICENSE")); err == nil {
		t.Error("a file with the wrong sha256 was written")
	}
}

func TestFetchOfflineSaysSo(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	datasets.Sources["test"] = datasets.FetchSource{Raw: map[string]string{"t/x": url + "/x"}}
	datasets.Pinned["test"] = []datasets.PinnedFile{{"t/x", ""}}
	defer delete(datasets.Sources, "test")
	defer delete(datasets.Pinned, "test")
	_, err := datasets.Fetch(context.Background(), http.DefaultClient, "test", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "cannot download "+url+"/x") || !strings.Contains(err.Error(), "offline?") {
		t.Errorf("error %v, want one naming the URL and saying what to do offline", err)
	}
	if _, err := datasets.Fetch(context.Background(), http.DefaultClient, "nope", t.TempDir()); err == nil {
		t.Error("unknown data set: no error")
	}
}
