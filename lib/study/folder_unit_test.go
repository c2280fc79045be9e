package study_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/study"
)

// TestPrepareIngestsInTheFolderUnit: a LongMemEval folder is cut one chunk
// per session; Prepare under the paper's options ingests it in that unit, so
// its qrels name chunks of the corpus (a paper-chunked ingest would cut the
// 5,482-character answer session under the render limit and validation would
// find no gold chunk). Asking for another unit is refused.
func TestPrepareIngestsInTheFolderUnit(t *testing.T) {
	dir := t.TempDir()
	f, na, err := datasets.ReadLongMemEval(filepath.Join("..", "datasets", "testdata", "longmemeval_long.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(filepath.Join(dir, "data"), false, na); err != nil {
		t.Fatal(err)
	}
	s, err := study.Prepare(study.PaperOptions(filepath.Join(dir, "data"), filepath.Join(dir, "a.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Opts.Chunking.Sessions || len(s.Chunks) != 3 {
		t.Errorf("chunking %+v, %d chunks; want the session unit, one chunk per session", s.Opts.Chunking, len(s.Chunks))
	}
	opts := study.PaperOptions(filepath.Join(dir, "data"), filepath.Join(dir, "b.db"))
	opts.Chunking = chunking.TurnOptions()
	if _, err := study.Prepare(opts); err == nil || !strings.Contains(err.Error(), "qrels name chunks of the former") {
		t.Errorf("turn unit over a session folder: %v, want a refusal", err)
	}
}
