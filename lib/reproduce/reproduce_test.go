package reproduce_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/reproduce"
)

// wantFiles are the artefacts spec §12 names: Tables 1, 3–9 and Figures 1–6
// in every format, the ceiling table, per-question metrics and the manifest;
// and the tables and figures beyond the paper.
func wantFiles() []string {
	var out []string
	for _, t := range []string{"table1_dataset", "table3_single_retrievers", "table4_hybrid_sweep", "table5_paired_differences",
		"table6_by_question_type", "table7_failures_by_type", "table8_failure_labels", "table9_success_overlap", reproduce.CeilingBaseName,
		"beyond_tokenizers", "beyond_fusion", "beyond_heldout_selection", reproduce.AggregateSlug, reproduce.AnswersSlug,
		// Round two; the conformance data has no evidence.jsonl, so no
		// LosslessSlug or EvidenceGroupsSlug.
		reproduce.QueryExpansionSlug, reproduce.SelectionAwareSlug, reproduce.AblationSlug} {
		for _, ext := range []string{".csv", ".md", ".tex"} {
			out = append(out, t+ext)
		}
	}
	for _, f := range []string{"figure1_single_retrievers", "figure2_hybrid_recall5_vs_beta", "figure3_hybrid_ndcg5_vs_beta",
		"figure4_paired_differences", "figure5_by_question_type", "figure6_topk_sensitivity",
		"beyond_tokenizers_recall5", "beyond_fusion_recall5_vs_beta", reproduce.AblationFigureSlug, reproduce.AnswersFigureSlug} {
		out = append(out, f+".png", f+".svg", f+".pdf", f+reproduce.CaptionExt)
	}
	out = append(out, reproduce.PerQuestionFile, reproduce.ManifestFile)
	sort.Strings(out)
	return out
}

// paperOptions are the paper's options over data and db with b bootstrap
// resamples (fewer than the paper's, to keep tests fast).
func paperOptions(data, db string, b int) reproduce.Options {
	o := reproduce.PaperOptions(data, db)
	o.Protocol.B = b
	return o
}

// table builds the table artefact of slug.
func table(s *reproduce.Study, slug string) (report.Table, error) {
	out, err := reproduce.Build(s, slug)
	if err != nil || out.Table == nil {
		return report.Table{}, fmt.Errorf("%s: no table (%v)", slug, err)
	}
	return *out.Table, nil
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
	opts := paperOptions(conformance.Dir(), filepath.Join(tmp, "conf.db"), 200)
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
	s, err := reproduce.Prepare(paperOptions(conformance.Dir(), filepath.Join(tmp, "conf.db"), 100))
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
	s, err := reproduce.Prepare(paperOptions(conformance.Dir(), filepath.Join(t.TempDir(), "conf.db"), 100))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tab, err := table(s, "table3")
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

// prepareConformance prepares the conformance pack with a small B.
func prepareConformance(t *testing.T) *reproduce.Study {
	t.Helper()
	s, err := reproduce.Prepare(paperOptions(conformance.Dir(), filepath.Join(t.TempDir(), "conf.db"), 100))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestTokenizerTableHasEveryRepresentationAndTokenizerInOrder(t *testing.T) {
	s := prepareConformance(t)
	tab, err := table(s, reproduce.TokenizersSlug)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"raw_text_bm25 paper-regex", "raw_text_bm25 kagome", "raw_text_bm25 char-bigram",
		"summary_bm25 paper-regex", "summary_bm25 kagome", "summary_bm25 char-bigram",
		"embedding_text_bm25 paper-regex", "embedding_text_bm25 kagome", "embedding_text_bm25 char-bigram",
	}
	if len(tab.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(tab.Rows), len(want))
	}
	t3, err := table(s, "table3")
	if err != nil {
		t.Fatal(err)
	}
	table3 := map[string]string{}
	for _, r := range t3.Rows {
		table3[r[0]] = r[1]
	}
	for i, r := range tab.Rows {
		if got := r[0] + " " + r[1]; got != want[i] {
			t.Errorf("row %d is %q, want %q", i, got, want[i])
		}
		last := r[len(r)-1]
		if r[1] == "paper-regex" {
			if last != "–" {
				t.Errorf("row %d: difference %q from itself, want –", i, last)
			}
			if r[2] != table3[r[0]] {
				t.Errorf("row %d: Recall@5 %q, Table 3 has %q", i, r[2], table3[r[0]])
			}
		} else if !strings.Contains(last, "[") {
			t.Errorf("row %d: difference %q has no interval", i, last)
		}
	}
}

func TestFusionTableLinearRowIsTheSelectedConfiguration(t *testing.T) {
	s := prepareConformance(t)
	c, err := beyond.CompareFusion(s.Outcome)
	if err != nil {
		t.Fatal(err)
	}
	sel, cfg, err := s.Selected()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := table(s, reproduce.FusionSlug)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 4 || len(c.Rows) != 4 {
		t.Fatalf("%d rows, want 4", len(tab.Rows))
	}
	t4, err := table(s, "table4")
	if err != nil {
		t.Fatal(err)
	}
	var selectedRecall string
	for _, r := range t4.Rows {
		if r[0] == cfg.Pairing {
			selectedRecall = r[2]
		}
	}
	if got := tab.Rows[0]; got[1] != cfg.Name || got[2] != selectedRecall || got[5] != "–" {
		t.Errorf("linear row %q, want %s with Recall@5 %s and no difference", got, cfg.Name, selectedRecall)
	}
	if c.Rows[0].Eval != sel {
		t.Error("linear row is not the selected evaluation")
	}
	for _, r := range c.Rows[1:] {
		t.Run(r.Rule, func(t *testing.T) {
			searched, err := s.Setup.Evaluate(r.Eval.Name) // fusing the sweep's components must equal searching again
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range searched.Result.Metrics {
				if got, want := r.Eval.Result.Mean[m], searched.Result.Mean[m]; got != want {
					t.Errorf("%s %s = %v from stored components, %v searched", r.Eval.Name, m, got, want)
				}
			}
		})
	}
	if len(c.Linear) != 21 || len(c.ZScore) != 21 {
		t.Errorf("curves of %d and %d β, want 21 each", len(c.Linear), len(c.ZScore))
	}
}

func TestHeldOutSelectionIsDeterministicForASeed(t *testing.T) {
	s := prepareConformance(t)
	first, err := beyond.HeldOutSelection(s.Outcome, 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	again, err := beyond.HeldOutSelection(s.Outcome, 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, again) {
		t.Error("the same seed gave different splits")
	}
	prefix, err := beyond.HeldOutSelection(s.Outcome, 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(prefix.Splits, first.Splits[:5]) {
		t.Error("the first 5 of 20 splits differ from 5 splits")
	}
	other, err := beyond.HeldOutSelection(s.Outcome, 20, 8)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(other.Splits, first.Splits) {
		t.Error("seeds 7 and 8 gave the same splits")
	}
	n := first.Questions
	for i, sp := range first.Splits {
		if len(sp.Select) != n/2 || len(sp.Evaluate) != n-n/2 {
			t.Fatalf("split %d: halves of %d and %d, want %d and %d", i, len(sp.Select), len(sp.Evaluate), n/2, n-n/2)
		}
		seen := map[int]bool{}
		for _, j := range append(append([]int(nil), sp.Select...), sp.Evaluate...) {
			seen[j] = true
		}
		if len(seen) != n {
			t.Errorf("split %d covers %d of %d questions", i, len(seen), n)
		}
		if got := sp.InSample - sp.HeldOut; got != sp.Optimism() {
			t.Errorf("split %d: optimism %v, want %v", i, sp.Optimism(), got)
		}
	}
	tab, err := table(s, reproduce.HeldOutSlug)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(tab.Rows); got != 8 {
		t.Errorf("table has %d rows, want 8", got)
	}
}

func TestHeldOutSelectionRejectsBadInput(t *testing.T) {
	s := prepareConformance(t)
	for _, tc := range []struct {
		name   string
		splits int
	}{{"no splits", 0}, {"negative splits", -1}} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := beyond.HeldOutSelection(s.Outcome, tc.splits, 1); err == nil {
				t.Errorf("%d splits: no error", tc.splits)
			}
		})
	}
}
