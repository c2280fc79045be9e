package store_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chunking"
	lineingest "github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/store"
)

// rawCode matches SQLite's "(1544)"-style result codes, which must not reach
// a user.
var rawCode = regexp.MustCompile(`\(\d+\)`)

func readOnlyFixture(t *testing.T) (dir, db string) {
	t.Helper()
	dir = t.TempDir()
	db = filepath.Join(dir, "m.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lineingest.File(st, filepath.Join("..", "lineexport", "testdata", "ja_1to1.txt"), chunking.DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, db
}

func TestOpenReadOnlyNeverWrites(t *testing.T) {
	_, db := readOnlyFixture(t)
	st, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if s, err := st.Stats(); err != nil || s.Messages == 0 {
		t.Fatalf("Stats = %+v, %v", s, err)
	}
	chunks, err := st.Chunks()
	if err != nil || len(chunks) == 0 {
		t.Fatalf("Chunks: %d, %v", len(chunks), err)
	}
	err = st.PutSummaries([]store.SummaryRow{{ChunkID: chunks[0].ID, Summary: "x", Origin: "test"}})
	if err == nil {
		t.Fatal("a write through a read-only store succeeded")
	}
	if msg := store.Explain(db, err).Error(); rawCode.MatchString(msg) || !regexp.MustCompile(`read-only`).MatchString(msg) {
		t.Errorf("write error explained as %q", msg)
	}
	if _, err := store.OpenReadOnly(filepath.Join(t.TempDir(), "none.db")); err == nil {
		t.Error("OpenReadOnly of a missing file succeeded")
	}
}

// TestReadOnlyFolder: a database in a folder nobody may write to is read
// with OpenReadOnly, and Open's failure is a sentence without SQLite codes.
func TestReadOnlyFolder(t *testing.T) {
	dir, db := readOnlyFixture(t)
	lockFolder(t, dir, db)
	st, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatalf("OpenReadOnly in a read-only folder: %v", err)
	}
	if s, err := st.Stats(); err != nil || s.Messages == 0 {
		t.Errorf("Stats = %+v, %v", s, err)
	}
	st.Close()
	if _, err := store.Open(db); err == nil || rawCode.MatchString(err.Error()) {
		t.Errorf("Open in a read-only folder: %v; want a sentence without SQLite codes", err)
	}
}

// TestReadOnlyFolderOlderSchema: a database of an older schema in a folder
// nobody may write to cannot be upgraded, and OpenReadOnly says so and what
// to do, without advising that reading commands still work.
func TestReadOnlyFolderOlderSchema(t *testing.T) {
	dir, db := readOnlyFixture(t)
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.DB().Exec(fmt.Sprintf(`PRAGMA user_version = %d`, store.SchemaVersion()-1)); err != nil {
		t.Fatal(err)
	}
	st.Close()
	lockFolder(t, dir, db)
	_, err = store.OpenReadOnly(db)
	if err == nil {
		t.Fatal("OpenReadOnly of an older schema in a read-only folder succeeded")
	}
	if msg := err.Error(); rawCode.MatchString(msg) || !strings.Contains(msg, "copy it to a writable folder") || strings.Contains(msg, "still work") {
		t.Errorf("error = %q; want the upgrade explained, without SQLite codes", msg)
	}
}

// lockFolder makes dir and db unwritable: by mode bits for an ordinary user,
// by the immutable attribute for root (whom mode bits do not stop).
func lockFolder(t *testing.T, dir, db string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(db, 0o444); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return
	}
	if out, err := exec.Command("chattr", "+i", db, dir).CombinedOutput(); err != nil {
		t.Skipf("cannot make a folder read-only for root here (chattr: %v %s)", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", dir, db).Run() })
}
