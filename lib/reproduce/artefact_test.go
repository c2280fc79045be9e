package reproduce_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/answereval"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/reproduce"
)

func TestRegistrySlugsAreUniqueAndLookedUp(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range reproduce.Artefacts {
		if a.Slug == "" || a.Build == nil || seen[a.Slug] {
			t.Errorf("artefact %q: empty, without Build or repeated", a.Slug)
		}
		seen[a.Slug] = true
		if got, err := reproduce.Lookup(a.Slug); err != nil || got.Slug != a.Slug {
			t.Errorf("Lookup(%q) = %q, %v", a.Slug, got.Slug, err)
		}
	}
	_, err := reproduce.Lookup("table2")
	if err == nil || !strings.Contains(err.Error(), `"table2"`) || !strings.Contains(err.Error(), strings.Join(reproduce.Slugs(), ", ")) {
		t.Errorf("Lookup(table2) = %v, want an error listing every slug", err)
	}
}

// TestWriteOneArtefactWritesItsFilesOnly: Write builds one registry entry
// and writes its files (a figure with its caption), nothing else; an
// artefact needing evidence.jsonl is an error without it.
func TestWriteOneArtefactWritesItsFilesOnly(t *testing.T) {
	s, err := reproduce.Prepare(paperOptions(conformance.Dir(), filepath.Join(t.TempDir(), "conf.db"), 50))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct {
		slug string
		want []string
	}{
		{"table3", []string{"table3_single_retrievers.csv", "table3_single_retrievers.md", "table3_single_retrievers.tex"}},
		{reproduce.TokenizersFigureSlug, []string{reproduce.TokenizersFigureSlug + reproduce.CaptionExt, reproduce.TokenizersFigureSlug + ".pdf",
			reproduce.TokenizersFigureSlug + ".png", reproduce.TokenizersFigureSlug + ".svg"}},
	} {
		dir := t.TempDir()
		paths, err := reproduce.Write(s, c.slug, dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := listDir(t, dir); strings.Join(got, " ") != strings.Join(c.want, " ") || len(paths) != len(c.want) {
			t.Errorf("Write(%s) wrote %v (paths %v), want %v", c.slug, got, paths, c.want)
		}
	}
	if _, err := reproduce.Write(s, reproduce.LosslessSlug, t.TempDir()); err == nil || !strings.Contains(err.Error(), datafolder.EvidenceFile) {
		t.Errorf("Write(%s) without evidence.jsonl = %v, want an error naming it", reproduce.LosslessSlug, err)
	}
}

// TestWriteTableKeepsOneLegendEntryPerRetriever: a table that carries the
// single retrievers' abbreviations itself (AnswersTable) gets no second copy
// from WriteTable.
func TestWriteTableKeepsOneLegendEntryPerRetriever(t *testing.T) {
	dir := t.TempDir()
	if _, err := reproduce.WriteTable(reproduce.AnswersTable([]answereval.Run{{Label: "embedding_text_bm25", Scores: &answereval.Scores{}}}, 10, 0), dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, reproduce.AnswersSlug+".tex"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `E-BM25: embedding\_text\_bm25`); n != 1 {
		t.Errorf("the legend names E-BM25 %d times, want once", n)
	}
}
