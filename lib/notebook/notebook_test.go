package notebook_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/notebook"
	"github.com/linemem/linemem/lib/report"
)

func TestDefaultsAreThePaperProtocol(t *testing.T) {
	p := notebook.Defaults()
	if !reflect.DeepEqual(p.Protocol, experiment.PaperProtocol()) {
		t.Errorf("Defaults().Protocol = %+v, want PaperProtocol()", p.Protocol)
	}
	o := p.Options()
	want := experiment.PaperProtocol()
	if !reflect.DeepEqual(o.Protocol, want) || o.DataDir != p.DataDir || o.DBPath != p.DBPath || o.Chunking != chunking.DefaultOptions() {
		t.Errorf("Options() = %+v, want the protocol, the paths and the default chunking", o)
	}
}

func TestMarkdownGridEscapesAndHasNoCaption(t *testing.T) {
	got := notebook.MarkdownGrid([]string{"a", "b"}, [][]string{{"x|y", "1"}})
	want := "| a | b |\n| :--- | :--- |\n| x\\|y | 1 |\n"
	if got != want {
		t.Errorf("MarkdownGrid = %q, want %q", got, want)
	}
}

func TestMarkdownIsTheWrittenFile(t *testing.T) {
	tab := report.Table{Number: 3, Slug: "s", Caption: "c", Columns: []string{"a"}, Rows: [][]string{{"1"}}}
	var b strings.Builder
	if err := tab.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if got := notebook.Markdown(tab); got != b.String() {
		t.Errorf("Markdown = %q, want %q", got, b.String())
	}
}

func TestListFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.csv"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := notebook.ListFiles(&b, filepath.Join(dir, "*.csv")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "a.csv") || !strings.HasSuffix(b.String(), " 5 bytes\n") {
		t.Errorf("ListFiles wrote %q, want a.csv with 5 bytes", b.String())
	}
	if err := notebook.ListFiles(&b, filepath.Join(dir, "*.png")); err == nil {
		t.Error("a pattern matching nothing gave no error")
	}
}

func TestPreview(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 5, ""},
		{"短い", 5, "短い"},
		{"一行目\n二行目", 20, "一行目 ⏎ 二行目"},
		{"あいうえおか", 3, "あいう…"},
	} {
		if got := notebook.Preview(c.in, c.n); got != c.want {
			t.Errorf("Preview(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestRepoRootOfATemporaryFolderIsAnError(t *testing.T) {
	if _, err := notebook.RepoRoot(t.TempDir()); err == nil {
		t.Error("no error outside a repository")
	}
}
