package store_test

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/store"
)

// TestOpenRefusesUnversioned: a file with tables but not linemem's, whatever
// its user_version and journal mode, or with linemem's tables but no schema
// version, is refused by Open and OpenReadOnly with what to do, and left byte
// for byte as it was; an SQLite file with no table is taken as new.
func TestOpenRefusesUnversioned(t *testing.T) {
	cases := []struct {
		name   string
		schema string // run by a plain SQLite connection on a new file
		want   string // in the error; "" opens
	}{
		{"another program's database", `CREATE TABLE notes (x); INSERT INTO notes VALUES (1)`, "linemem did not write (1 table, schema version 0"},
		{"another program's, with a version", `CREATE TABLE notes (x); CREATE TABLE tags (y); PRAGMA user_version = 3`, "linemem did not write (2 tables, schema version 3"},
		{"another program's, at linemem's version", fmt.Sprintf(`CREATE TABLE notes (x); PRAGMA user_version = %d`, store.SchemaVersion()), "linemem did not write"},
		{"another program's, in WAL mode at linemem's version", fmt.Sprintf(`PRAGMA journal_mode = WAL; CREATE TABLE notes (x); PRAGMA user_version = %d`, store.SchemaVersion()), "linemem did not write"},
		{"a linemem copy without its version", `CREATE TABLE sources (name TEXT PRIMARY KEY); CREATE TABLE chunks (chunk_id TEXT)`, `PRAGMA user_version = N`},
		{"an SQLite file with no table", `PRAGMA page_size = 4096; VACUUM`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "other.db")
			db, err := sql.Open("sqlite", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(c.schema); err != nil {
				t.Fatal(err)
			}
			db.Close()
			before, err := os.ReadFile(path)
			if err != nil || len(before) == 0 {
				t.Fatalf("the fixture file: %d bytes, %v", len(before), err)
			}
			for _, open := range []struct {
				name string
				f    func(string) (*store.Store, error)
			}{{"Open", store.Open}, {"OpenReadOnly", store.OpenReadOnly}} {
				st, err := open.f(path)
				if c.want == "" {
					if err != nil {
						t.Fatalf("%s: %v", open.name, err)
					}
					st.Close()
					continue
				}
				if err == nil {
					st.Close()
					t.Fatalf("%s opened it", open.name)
				}
				if msg := err.Error(); !strings.Contains(msg, c.want) || !strings.HasPrefix(msg, path) {
					t.Errorf("%s: %q, want the path first and %q", open.name, msg, c.want)
				}
				if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
					t.Errorf("%s changed the file (%v)", open.name, err)
				}
			}
		})
	}
}

// TestOpenPutsCopyInWAL: a linemem database in another journal mode, as a
// .dump restored by sqlite3 is once given its version back, opens and is
// put in WAL mode, with its data.
func TestOpenPutsCopyInWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "copy.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode = DELETE`).Scan(&mode); err != nil || mode != "delete" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	db.Close()
	st, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.DB().QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode after Open = %q, %v; want wal", mode, err)
	}
}
