package study_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/study"
)

// TestPrepareRefusesADatabaseWithSourcesTheFolderNoLongerHas: a database
// reused after a source left the data folder (a re-conversion, a reruns'
// --work folder) would keep the source's chunks in every ranking; Prepare
// names the source instead of running on it.
func TestPrepareRefusesADatabaseWithSourcesTheFolderNoLongerHas(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	if err := os.CopyFS(data, os.DirFS(conformance.Dir())); err != nil {
		t.Fatal(err)
	}
	extra := filepath.Join(data, "sources", "extra.json")
	if err := os.WriteFile(extra, []byte(`{"2024-01-01": [{"time": "09:00", "sender": "自分", "type": "text", "text": "おはよう"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "reused.db")
	s, err := study.Prepare(study.PaperOptions(data, db))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	os.Remove(extra)
	s, err = study.Prepare(study.PaperOptions(data, db))
	if err == nil {
		s.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "extra.json") {
		t.Errorf("Prepare on a database holding a source the folder lost: %v, want an error naming extra.json", err)
	}
}
