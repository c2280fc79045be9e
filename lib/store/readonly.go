package store

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// OpenReadOnly opens an existing database for reading only: the connection
// is opened with mode=ro, so nothing is ever written, and a database in a
// read-only folder or on a read-only medium can still be read. When SQLite
// cannot open it so (a WAL database whose -shm file cannot be created in a
// read-only folder), it is opened immutable, which is sound because nothing
// can write there either. A database whose schema is older than this
// linemem's is upgraded with Open when it can be written, and refused with a
// sentence saying so when it cannot. A missing file is an error, and so is
// an SQLite file that linemem did not write (readSchema).
func OpenReadOnly(path string) (*Store, error) {
	s, version, err := openRO(path, false)
	if err != nil && !errors.Is(err, errNotLinemem) {
		s, version, err = openRO(path, true)
	}
	if err != nil {
		return nil, Explain(path, err)
	}
	switch {
	case version > len(migrations):
		s.Close()
		return nil, fmt.Errorf("%s: schema version %d is newer than this linemem supports (%d); use a newer linemem", path, version, len(migrations))
	case version < len(migrations):
		s.Close()
		rw, err := Open(path)
		if errors.Is(err, errNotLinemem) {
			return nil, err
		}
		if err != nil {
			var se *sqlite.Error
			if errors.As(err, &se) && (se.Code()&0xff == sqlite3.SQLITE_READONLY || se.Code()&0xff == sqlite3.SQLITE_CANTOPEN) {
				// The file was just read, so it cannot be written (or its WAL
				// cannot be made beside it); Explain's advice for a read-only
				// file, that commands that only read still work, does not
				// hold for one to upgrade.
				return nil, &explained{msg: fmt.Sprintf("%s was written by an older linemem (schema %d of %d) and is upgraded once, which needs a file and folder that can be written: copy it to a writable folder and use the copy", path, version, len(migrations)), err: err}
			}
			return nil, fmt.Errorf("%s was written by an older linemem (schema %d of %d) and cannot be upgraded here: %w", path, version, len(migrations), err)
		}
		return rw, nil
	}
	return s, nil
}

// openRO opens path with mode=ro (and immutable=1 when asked) and reads its
// schema version (readSchema), which also proves the file can be read.
func openRO(path string, immutable bool) (*Store, int, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	if immutable {
		q.Set("immutable", "1")
	}
	for _, p := range []string{"foreign_keys(1)", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMillis), fmt.Sprintf("cache_size(-%d)", cacheKiB), "temp_store(MEMORY)", fmt.Sprintf("mmap_size(%d)", mmapBytes)} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", fileURI(path, q))
	if err != nil {
		return nil, 0, err
	}
	version, err := readSchema(db, path)
	if err != nil {
		db.Close()
		return nil, 0, err
	}
	return &Store{db: db, path: path}, version, nil
}

// Explain turns an SQLite error about the database at path into a sentence
// that says what happened and what to do, wrapping err; so is any error when
// path is a folder. Other errors are returned as they are.
func Explain(path string, err error) error {
	if fi, statErr := os.Stat(path); statErr == nil && fi.IsDir() {
		return &explained{msg: fmt.Sprintf("%s is a folder, not a database file: give --db the path of a file", path), err: err}
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	var what string
	switch se.Code() & 0xff { // primary result code
	case sqlite3.SQLITE_READONLY:
		what = "cannot be written: the file or its folder is read-only (commands that only read, such as stats, chunks, eval, sweep and mcp, still work)"
	case sqlite3.SQLITE_CANTOPEN:
		what = "cannot be opened: check that the file exists, that it and its folder are readable, and that the folder is writable for commands that change the database"
	case sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH:
		what = "cannot be accessed: permission denied"
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		what = "is busy: another linemem process is writing it; try again when it has finished"
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		what = "is not a linemem database, or it is damaged"
	case sqlite3.SQLITE_FULL:
		what = "cannot grow: the disk is full; free some space and rerun (nothing half-written was kept)"
	case sqlite3.SQLITE_IOERR:
		what = "could not be read or written (an I/O error from the disk or file system)"
	default:
		return err
	}
	return &explained{msg: fmt.Sprintf("%s %s", path, what), err: err}
}

// explained is an SQLite error restated as a sentence.
type explained struct {
	msg string
	err error
}

func (e *explained) Error() string { return e.msg }
func (e *explained) Unwrap() error { return e.err }
