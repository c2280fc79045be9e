package ingest_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/store"
)

// TestPrepareHashesWhatItParses feeds an export through a named pipe that
// serves one version on its first open and another on any later one, as a
// file rewritten between two reads would. The stored hash must be that of
// the bytes parsed.
func TestPrepareHashesWhatItParses(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "chat.txt")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	first, err := os.ReadFile(filepath.Join("..", "lineexport", "testdata", "ja_1to1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	second := append(append([]byte(nil), first...), []byte("23:59\t部長\t追記\n")...)
	go func() {
		for i, version := range [][]byte{first, second} {
			if i > 0 {
				time.Sleep(200 * time.Millisecond) // let the reader see the end of the first version and close
			}
			f, err := os.OpenFile(pipe, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			f.Write(version)
			f.Close()
		}
	}()
	t.Cleanup(func() { // release the writer if only one version was read
		if f, err := os.OpenFile(pipe, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	p := ingest.Prepare(openStore(t), ingest.Input{Path: pipe}, chunking.DefaultOptions())
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	parsedFirst := p.Result.Messages[len(p.Result.Messages)-1].Text != "追記"
	want := sha256.Sum256(first)
	if !parsedFirst {
		want = sha256.Sum256(second)
	}
	if p.SHA256 != hex.EncodeToString(want[:]) {
		t.Errorf("stored hash %s is not the hash of the bytes parsed (version %d)", p.SHA256, map[bool]int{true: 1, false: 2}[parsedFirst])
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
