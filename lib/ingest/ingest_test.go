package ingest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/store"
)

func TestFilesAddsThenRecognisesUnchanged(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	inputs, problems := ingest.Collect([]string{conformance.Path("sources")})
	if len(problems) > 0 || len(inputs) != 3 {
		t.Fatalf("Collect: %d inputs, problems %v; want 3 inputs", len(inputs), problems)
	}
	for _, want := range []store.IngestOutcome{store.Added, store.Unchanged} {
		chunks := 0
		ingest.Files(st, inputs, chunking.DefaultOptions(), func(i int, in ingest.Input, rep ingest.Report, err error) {
			if err != nil {
				t.Fatalf("%s: %v", in.Path, err)
			}
			if rep.Outcome != want {
				t.Errorf("%s: %v, want %v", rep.Source, rep.Outcome, want)
			}
			chunks += rep.Chunks
		})
		if chunks != 14 { // lines of expected_chunks.jsonl
			t.Errorf("%v pass: %d chunks, want 14", want, chunks)
		}
	}
}

// TestFilesInOrder: with more files than preparing goroutines, and failing
// files among them, every file is reported once, in input order, and each
// good file is stored.
func TestFilesInOrder(t *testing.T) {
	dir := t.TempDir()
	sources, problems := ingest.Collect([]string{conformance.Path("sources")})
	if len(problems) > 0 || len(sources) == 0 {
		t.Fatalf("Collect: %v, %v", sources, problems)
	}
	var inputs []ingest.Input
	bad := map[int]bool{}
	for i := range 9 {
		path := filepath.Join(dir, fmt.Sprintf("chat_%d%s", i, filepath.Ext(sources[i%len(sources)].Path)))
		data, err := os.ReadFile(sources[i%len(sources)].Path)
		if err != nil {
			t.Fatal(err)
		}
		if i%4 == 2 {
			path, data, bad[i] = filepath.Join(dir, fmt.Sprintf("chat_%d.json", i)), []byte(`[1, 2]`), true
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, ingest.Input{Path: path})
	}
	st, err := store.Open(filepath.Join(dir, "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var order []int
	ingest.Files(st, inputs, chunking.DefaultOptions(), func(i int, in ingest.Input, rep ingest.Report, err error) {
		order = append(order, i)
		if in.Path != inputs[i].Path {
			t.Errorf("report %d is of %s, want %s", i, in.Path, inputs[i].Path)
		}
		if (err != nil) != bad[i] {
			t.Errorf("%s: error %v, want one: %v", in.Path, err, bad[i])
		}
		if err == nil && (rep.Outcome != store.Added || rep.Messages == 0) {
			t.Errorf("%s: %+v, want added with its messages", in.Path, rep)
		}
	})
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}; !slices.Equal(order, want) {
		t.Errorf("reported in order %v, want %v", order, want)
	}
	if srcs, err := st.Sources(); err != nil || len(srcs) != len(inputs)-len(bad) {
		t.Errorf("%d sources stored (%v), want %d", len(srcs), err, len(inputs)-len(bad))
	}
}

func TestCollectReportsMissingPathAndDuplicateSource(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/x.json", "b/x.json", "b/notes.md"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inputs, problems := ingest.Collect([]string{dir, filepath.Join(dir, "missing.json")})
	if len(inputs) != 1 || filepath.Base(inputs[0].Path) != "x.json" {
		t.Errorf("inputs %v, want the first x.json only", inputs)
	}
	if len(problems) != 2 {
		t.Errorf("problems %v, want a duplicate source name and a missing path", problems)
	}
}

func TestFileLeavesStoreUnchangedOnBadInput(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`[1, 2]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.File(st, bad, chunking.DefaultOptions()); err == nil {
		t.Fatal("a top-level array was accepted")
	}
	if srcs, err := st.Sources(); err != nil || len(srcs) != 0 {
		t.Errorf("sources after a failed ingest: %v, %v; want none", srcs, err)
	}
}

func TestCollectFollowsALinkedFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "exports"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "exports", "chat.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "sources")
	if err := os.Symlink(filepath.Join(dir, "exports"), link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	inputs, problems := ingest.Collect([]string{link})
	if len(problems) != 0 || len(inputs) != 1 || filepath.Base(inputs[0].Path) != "chat.txt" {
		t.Errorf("inputs %v, problems %v; want chat.txt through the link", inputs, problems)
	}
}

// TestCommitUnchangedMeanwhile: when another writer stores the same file
// between Prepare and Commit, Commit reports the source unchanged and, as
// for a file recognised before parsing, without the parse's warnings, which
// the run that stored it reported already.
func TestCommitUnchangedMeanwhile(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "testdata", "history", "[LINE] 家族のトーク.txt"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "family.txt")
	crOnly := strings.ReplaceAll(strings.ReplaceAll(string(text), "\r\n", "\n"), "\n", "\r") // warned about on parse
	if err := os.WriteFile(path, []byte(crOnly), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opts := chunking.DefaultOptions()
	first, second := ingest.Prepare(st, ingest.Input{Path: path}, opts), ingest.Prepare(st, ingest.Input{Path: path}, opts)
	if first.Unchanged || second.Unchanged {
		t.Fatal("a file not stored yet was prepared as unchanged")
	}
	added, err := ingest.Commit(st, first, opts)
	if err != nil || added.Outcome != store.Added || len(added.Warnings) == 0 {
		t.Fatalf("first Commit = %+v, %v; want added with the CR-only warning", added, err)
	}
	again, err := ingest.Commit(st, second, opts)
	if err != nil || again.Outcome != store.Unchanged || len(again.Warnings) != 0 {
		t.Errorf("second Commit = %+v, %v; want unchanged without warnings", again, err)
	}
	if again.Messages != added.Messages || again.Chunks != added.Chunks || again.Uncovered != added.Uncovered {
		t.Errorf("second Commit counts %d/%d/%d, want the first's %d/%d/%d",
			again.Messages, again.Chunks, again.Uncovered, added.Messages, added.Chunks, added.Uncovered)
	}
}
