package store_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/lib/store"
)

// TestNewDatabaseFilesOwnerOnly: a database Open creates, its WAL and its
// SHM file are readable and writable by their owner only, whatever the
// umask lets through.
func TestNewDatabaseFilesOwnerOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "linemem.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.DB().Exec(`CREATE TABLE IF NOT EXISTS probe (x); INSERT INTO probe VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != store.FileMode {
			t.Errorf("%s: mode %v, want %v", filepath.Base(name), got, os.FileMode(store.FileMode))
		}
	}
}
