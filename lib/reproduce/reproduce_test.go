package reproduce_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/reproduce"
)

// wantFiles are the artefacts spec §12 names: Tables 1, 3–9 and Figures 1–6
// in every format, the ceiling table, per-question metrics and the manifest.
func wantFiles() []string {
	var out []string
	for _, t := range []string{"table1_dataset", "table3_single_retrievers", "table4_hybrid_sweep", "table5_paired_differences",
		"table6_by_question_type", "table7_failures_by_type", "table8_failure_labels", "table9_success_overlap", reproduce.CeilingBaseName} {
		for _, ext := range []string{".csv", ".md", ".tex"} {
			out = append(out, t+ext)
		}
	}
	for _, f := range []string{"figure1_single_retrievers", "figure2_hybrid_recall5_vs_beta", "figure3_hybrid_ndcg5_vs_beta",
		"figure4_paired_differences", "figure5_by_question_type", "figure6_topk_sensitivity"} {
		out = append(out, f+".png", f+".svg")
	}
	out = append(out, reproduce.PerQuestionFile, reproduce.ManifestFile)
	sort.Strings(out)
	return out
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func TestRunWritesEveryArtefactAndRerunsIdentically(t *testing.T) {
	tmp := t.TempDir()
	opts := reproduce.Options{DataDir: conformance.Dir(), DBPath: filepath.Join(tmp, "conf.db"), B: 200}
	first, second := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	if _, err := reproduce.Run(opts, first); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(listDir(t, first), " "), strings.Join(wantFiles(), " "); got != want {
		t.Fatalf("files:\n%s\nwant:\n%s", got, want)
	}
	if _, err := reproduce.Run(opts, second); err != nil { // reuses the database
		t.Fatal(err)
	}
	for _, name := range wantFiles() {
		a, _ := os.ReadFile(filepath.Join(first, name))
		b, _ := os.ReadFile(filepath.Join(second, name))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between a run and a rerun", name)
		}
	}
}

func TestPerQuestionMetricsHoldNoQuestionText(t *testing.T) {
	tmp := t.TempDir()
	s, err := reproduce.Prepare(reproduce.Options{DataDir: conformance.Dir(), DBPath: filepath.Join(tmp, "conf.db"), B: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.WriteAll(tmp); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(tmp, reproduce.PerQuestionFile))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if !strings.HasPrefix(text, "qid,type,retriever,recall@5,mrr@5,ndcg@5,success@5\n") {
		t.Errorf("header: %q", strings.SplitN(text, "\n", 2)[0])
	}
	for _, q := range s.Questions {
		if strings.Contains(text, q.Question) {
			t.Errorf("per-question metrics contain the text of %s", q.QID)
		}
	}
	for _, c := range s.Chunks[:3] {
		if strings.Contains(text, c.RawText[:20]) {
			t.Errorf("per-question metrics contain chat text of %s", c.ID)
		}
	}
}

func TestTable3RowsFollowPaperOrder(t *testing.T) {
	s, err := reproduce.Prepare(reproduce.Options{DataDir: conformance.Dir(), DBPath: filepath.Join(t.TempDir(), "conf.db"), B: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tab, err := s.Table3()
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, r := range tab.Rows {
		methods = append(methods, r[0])
	}
	want := "raw_text_bm25 summary_bm25 summary_vector embedding_text_vector embedding_text_bm25"
	if got := strings.Join(methods, " "); got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
	// embedding_text_bm25 on the conformance pack: Recall@5 = 1 on all 7 evaluated questions.
	if got := tab.Rows[4][1]; !strings.HasPrefix(got, "1.000 ") {
		t.Errorf("embedding_text_bm25 Recall@5 cell %q, want 1.000 …", got)
	}
}
