package ingest_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/store"
)

// TestOnlyRegularFiles: a named pipe and a link to a device, in a folder or
// given by name, are skipped with a warning naming them (reading either
// would block or never end); Prepare given one anyway refuses it without
// blocking; a link to a regular file is followed.
func TestOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "p.json")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	zero := filepath.Join(dir, "zero.txt")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	chat, err := os.ReadFile(filepath.Join("..", "lineexport", "testdata", "ja_1to1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(t.TempDir(), "real.txt")
	if err := os.WriteFile(real, chat, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(dir, "linked.txt")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{dir}, {pipe, zero, filepath.Join(dir, "linked.txt")}} {
		inputs, problems := ingest.Collect(args)
		if len(inputs) != 1 || filepath.Base(inputs[0].Path) != "linked.txt" || inputs[0].Size != int64(len(chat)) {
			t.Errorf("Collect(%v) = %v, want linked.txt of %d bytes", args, inputs, len(chat))
		}
		var skipped []string
		for _, p := range problems {
			var s *ingest.Skipped
			if !errors.As(p, &s) {
				t.Errorf("problem %v is not a skip", p)
				continue
			}
			skipped = append(skipped, p.Error())
		}
		want := []string{pipe + ": skipped: a named pipe, not a regular file", zero + ": skipped: a character device, not a regular file"}
		if strings.Join(skipped, "\n") != strings.Join(want, "\n") {
			t.Errorf("Collect(%v) skipped\n%s\nwant\n%s", args, strings.Join(skipped, "\n"), strings.Join(want, "\n"))
		}
	}
	done := make(chan ingest.Prepared, 1)
	go func() { done <- ingest.Prepare(openStore(t), ingest.Input{Path: pipe}, chunking.DefaultOptions()) }()
	select {
	case p := <-done:
		if p.Err == nil || !strings.Contains(p.Err.Error(), "a named pipe, not a regular file") {
			t.Errorf("Prepare(pipe) error %v, want a refusal", p.Err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Prepare blocked on a named pipe")
	}
}

// TestPrepareSizeLimit: a file over Input.MaxBytes fails naming the limit
// and is not parsed; one of exactly MaxBytes is read; the stored hash is
// that of the bytes read.
func TestPrepareSizeLimit(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "lineexport", "testdata", "ja_1to1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chat.txt")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	n := int64(len(data))
	st := openStore(t)
	p := ingest.Prepare(st, ingest.Input{Path: path, MaxBytes: n - 1}, chunking.DefaultOptions())
	if p.Err == nil || !strings.Contains(p.Err.Error(), fmt.Sprintf("%d bytes or more, over the limit of %d bytes", n, n-1)) || p.Result != nil {
		t.Errorf("MaxBytes %d: error %v, want the limit named and nothing parsed", n-1, p.Err)
	}
	p = ingest.Prepare(st, ingest.Input{Path: path, MaxBytes: n}, chunking.DefaultOptions())
	sum := sha256.Sum256(data)
	if p.Err != nil || p.SHA256 != hex.EncodeToString(sum[:]) || p.Size != n {
		t.Errorf("MaxBytes %d: %v, hash %s size %d; want the file read whole", n, p.Err, p.SHA256, p.Size)
	}
}

// TestCollectSameFileTwice: a folder and a file in it, or a file and a link
// to it, are one input under the first path, not a source-name conflict;
// two different files of one base name still are.
func TestCollectSameFileTwice(t *testing.T) {
	dir := t.TempDir()
	family := filepath.Join(dir, "family.json")
	if err := os.WriteFile(family, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "family.json")
	if err := os.WriteFile(other, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "family.json")
	if err := os.Symlink(family, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	for _, c := range []struct {
		args     []string
		want     string // the one input
		problems int
	}{
		{[]string{dir, family}, family, 0},
		{[]string{family, dir + string(filepath.Separator) + "." + string(filepath.Separator) + "family.json"}, family, 0},
		{[]string{link, family}, link, 0},
		{[]string{family, other}, family, 1},
	} {
		inputs, problems := ingest.Collect(c.args)
		if len(inputs) != 1 || inputs[0].Path != c.want || len(problems) != c.problems {
			t.Errorf("Collect(%v) = %v, problems %v; want %s only and %d problem(s)", c.args, inputs, problems, c.want, c.problems)
		}
	}
}

// TestCollectRefusesNonUTF8Names: a file name that is not UTF-8 is a
// problem showing its bytes escaped; the other files are still taken.
func TestCollectRefusesNonUTF8Names(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "chat\xff\xfe.txt")
	for _, p := range []string{bad, filepath.Join(dir, "good.txt")} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Skipf("this file system refuses the name: %v", err)
		}
	}
	inputs, problems := ingest.Collect([]string{dir})
	if len(inputs) != 1 || filepath.Base(inputs[0].Path) != "good.txt" {
		t.Errorf("inputs %v, want good.txt only", inputs)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), `chat\xff\xfe.txt"`) || !utf8.ValidString(problems[0].Error()) {
		t.Errorf("problems %v, want one naming the file with its bytes escaped", problems)
	}
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestCollectSymlinkedFolder: a folder given as a symbolic link is walked
// like the folder it points to, and paths keep the name given.
func TestCollectSymlinkedFolder(t *testing.T) {
	link := filepath.Join(t.TempDir(), "linkdir")
	if err := os.Symlink(conformance.Path("sources"), link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	for _, arg := range []string{link, link + string(filepath.Separator)} {
		inputs, problems := ingest.Collect([]string{arg})
		if len(problems) > 0 || len(inputs) != 3 {
			t.Errorf("Collect(%s): %d inputs, problems %v; want 3", arg, len(inputs), problems)
			continue
		}
		for _, in := range inputs {
			if filepath.Dir(in.Path) != filepath.Clean(link) {
				t.Errorf("Collect(%s) gave %s, want a path under %s", arg, in.Path, link)
			}
		}
	}
}
