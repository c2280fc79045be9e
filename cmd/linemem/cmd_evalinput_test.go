package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/experiment"
)

// evalInputData lays out a reproduce data folder from the conformance pack
// with qrels replaced by qrels (nil keeps the pack's), and returns it.
func evalInputData(t *testing.T, qrels []string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Symlink(conformance.Path("sources"), filepath.Join(dir, "sources")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"questions.jsonl", "summaries.jsonl", "vectors_summary.jsonl", "vectors_embedding_text.jsonl", "query_vectors.jsonl", "qrels.txt"} {
		data, err := os.ReadFile(conformance.Path(name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "qrels.txt" && qrels != nil {
			data = []byte(strings.Join(qrels, "\n") + "\n")
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// packQrels returns the conformance qrels lines, with rel 2 rewritten to 1
// when demote is set.
func packQrels(t *testing.T, demote bool) []string {
	t.Helper()
	data, err := os.ReadFile(conformance.Path("qrels.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if demote {
			l = strings.TrimSuffix(l, " 2") + map[bool]string{true: " 1", false: ""}[strings.HasSuffix(l, " 2")]
		}
		out = append(out, l)
	}
	return out
}

func TestEvaluationInputs(t *testing.T) {
	db := conformanceDB(t)
	noPrimary := evalInputData(t, packQrels(t, true))
	empty := evalInputData(t, []string{})
	ghost := packQrels(t, false)
	ghost = append(ghost[:3], append([]string{"q02 0 deadbeefdeadbeef 2"}, ghost[3:]...)...) // line 4
	missing := evalInputData(t, ghost)
	q := func(dir string) []string {
		return []string{"--questions", filepath.Join(dir, "questions.jsonl"), "--qrels", filepath.Join(dir, "qrels.txt")}
	}
	eval := func(dir string, extra ...string) []string {
		return append(append([]string{"eval", "--db", db, "--retriever", "raw_text_bm25"}, q(dir)...), extra...)
	}
	sweep := func(dir string) []string {
		return append([]string{"sweep", "--db", db, "--embed-model", "conf"}, q(dir)...)
	}
	repro := func(dir string, extra ...string) []string {
		return append([]string{"reproduce", "--quiet", "--db", filepath.Join(t.TempDir(), "r.db"), "--data", dir, "--out", t.TempDir(), "--bootstrap", "20"}, extra...)
	}
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		// item 9: zero evaluable questions
		{"eval, no primary gold", eval(noPrimary), 1, "none of the 9 questions"},
		{"eval, empty qrels", eval(empty), 1, "has a chunk judged 2"},
		{"sweep, no primary gold", sweep(noPrimary), 1, "none of the 9 questions"},
		{"reproduce, no primary gold", repro(noPrimary), 1, "none of the 9 questions"},
		// item 10: bootstrap range
		{"eval --bootstrap -1", eval(missing, "--bootstrap", "-1"), 2, "between 1 and"},
		{"eval --bootstrap 0", eval(missing, "--bootstrap", "0"), 2, "got 0"},
		{"eval --bootstrap 3000000000", eval(missing, "--bootstrap", "3000000000"), 2, fmt.Sprint(experiment.MaxBootstrap)},
		{"reproduce --bootstrap 0", repro(missing, "--bootstrap", "0"), 2, "between 1 and"},
		// item 11: a gold chunk that is not in the corpus
		{"eval, unknown gold chunk", eval(missing), 1, filepath.Join(missing, "qrels.txt") + ":4: expected a chunk ID of the corpus, got \"deadbeefdeadbeef\""},
		{"sweep, unknown gold chunk", sweep(missing), 1, "qrels.txt:4:"},
		{"reproduce, unknown gold chunk", repro(missing), 1, "qrels.txt:4:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := ingestSideRun(t, c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, c.code, c.want)
			}
			if strings.Contains(stdout, "selected") || strings.Contains(stdout, "recall@5") {
				t.Errorf("printed results despite the error:\n%s", stdout)
			}
		})
	}
}
