package main

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
)

// metricTol is the conformance pack's tolerance for macro metrics: the same
// formulas, summed in another order.
const metricTol = 1e-9

// run executes the CLI in-process and fails the test on a non-zero exit.
func run(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := runMain(&environment{stdout: &out, stderr: &errOut}, args); code != 0 {
		t.Fatalf("linemem %s: exit %d\n%s", strings.Join(args, " "), code, errOut.String())
	}
	return out.String()
}

// conformanceDB ingests the conformance sources and imports its summaries
// and vectors (model "conf") into a fresh database.
func conformanceDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "conf.db")
	run(t, "ingest", "--db", db, conformance.Path("sources"))
	run(t, "summaries", "import", "--db", db, conformance.Path("summaries.jsonl"))
	run(t, "vectors", "import", "--db", db, "--rep", "summary", "--model", "conf", conformance.Path("vectors_summary.jsonl"))
	run(t, "vectors", "import", "--db", db, "--rep", "embedding_text", "--model", "conf", conformance.Path("vectors_embedding_text.jsonl"))
	run(t, "vectors", "import", "--db", db, "--queries", "--model", "conf", conformance.Path("query_vectors.jsonl"))
	return db
}

func TestConformanceEvalRunsAndMetrics(t *testing.T) {
	db := conformanceDB(t)
	var want struct {
		Retrievers []struct {
			Name         string                     `json:"name"`
			Questions    int                        `json:"questions"`
			Excluded     int                        `json:"excluded"`
			ExcludedQIDs []string                   `json:"excluded_qids"`
			Means        map[string]float64         `json:"-"`
			Raw          map[string]json.RawMessage `json:"-"`
		} `json:"retrievers"`
	}
	conformance.ReadJSON(t, "expected_eval.json", &want)
	var rawWant struct {
		Retrievers []map[string]json.RawMessage `json:"retrievers"`
	}
	conformance.ReadJSON(t, "expected_eval.json", &rawWant)
	names := make([]string, len(want.Retrievers))
	for i, r := range want.Retrievers {
		names[i] = r.Name
	}
	runDir := t.TempDir()
	out := run(t, "eval", "--db", db, "--questions", conformance.Path("questions.jsonl"), "--qrels", conformance.Path("qrels.txt"),
		"--retriever", strings.Join(names, ","), "--run-dir", runDir, "--json")
	var got evalJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("eval --json: %v\n%s", err, out)
	}
	if len(got.Retrievers) != len(names) {
		t.Fatalf("eval --json: %d retrievers, want %d", len(got.Retrievers), len(names))
	}
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			g, w := got.Retrievers[i], want.Retrievers[i]
			if g.Head.Name != name || g.Head.Questions != w.Questions || g.Head.Excluded != w.Excluded || strings.Join(g.Head.ExcludedQIDs, ",") != strings.Join(w.ExcludedQIDs, ",") {
				t.Errorf("got %s questions %d excluded %d %v, want %s %d %d %v", g.Head.Name, g.Head.Questions, g.Head.Excluded, g.Head.ExcludedQIDs, name, w.Questions, w.Excluded, w.ExcludedQIDs)
			}
			if len(g.Means) != 4 {
				t.Errorf("%d metrics %v, want the paper's 4", len(g.Means), g.Means)
			}
			for metric, gotValue := range g.Means {
				var wantValue float64
				if err := json.Unmarshal(rawWant.Retrievers[i][metric], &wantValue); err != nil {
					t.Fatal(err)
				}
				if math.Abs(gotValue-wantValue) > metricTol {
					t.Errorf("%s = %v, want %v", metric, gotValue, wantValue)
				}
			}
			compareRunFiles(t, filepath.Join(runDir, name+".run"), conformance.Path("expected_runs", name+".run"))
		})
	}
}

// compareRunFiles checks a run against the expected one: the same lines in
// the same order, except that items whose scores differ by less than 1e-6
// (relative to max(1, |score|)) may swap; scores agree to 1e-9 relative.
func compareRunFiles(t *testing.T, gotPath, wantPath string) {
	t.Helper()
	const swapTol = 1e-6 // the pack's allowance for ties broken by float noise
	const scoreTol = 1e-9
	got, want := conformance.ReadRunFile(t, gotPath), conformance.ReadRunFile(t, wantPath)
	if len(got) != len(want) {
		t.Errorf("%s: %d questions, want %d", filepath.Base(gotPath), len(got), len(want))
	}
	for qid, w := range want {
		g := got[qid]
		if len(g) != len(w) {
			t.Errorf("%s %s: %d hits, want %d", filepath.Base(gotPath), qid, len(g), len(w))
			continue
		}
		for i := range w {
			scale := math.Max(1, math.Abs(w[i].Score))
			if math.Abs(g[i].Score-w[i].Score) > scoreTol*scale {
				t.Errorf("%s %s rank %d: score %v, want %v", filepath.Base(gotPath), qid, i+1, g[i].Score, w[i].Score)
			}
			if g[i].ChunkID == w[i].ChunkID {
				continue
			}
			swapped := false
			for j := range w {
				if w[j].ChunkID == g[i].ChunkID && math.Abs(w[j].Score-w[i].Score) < swapTol*scale {
					swapped = true
				}
			}
			if !swapped {
				t.Errorf("%s %s rank %d: %s, want %s", filepath.Base(gotPath), qid, i+1, g[i].ChunkID, w[i].ChunkID)
			}
		}
	}
}

func TestConformanceSweep(t *testing.T) {
	db := conformanceDB(t)
	var want sweepJSON
	conformance.ReadJSON(t, "expected_sweep.json", &want)
	out := run(t, "sweep", "--db", db, "--questions", conformance.Path("questions.jsonl"), "--qrels", conformance.Path("qrels.txt"), "--json")
	var got sweepJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("sweep --json: %v\n%s", err, out)
	}
	if len(got.Configurations) != 126 || len(want.Configurations) != 126 {
		t.Fatalf("got %d configurations, want %d (126)", len(got.Configurations), len(want.Configurations))
	}
	for i, w := range want.Configurations {
		g := got.Configurations[i]
		if g.Head != w.Head {
			t.Errorf("configuration %d: %v, want %v", i, g.Head, w.Head)
		}
		if len(g.Means) != 4 || len(w.Means) != 4 {
			t.Errorf("%s: %d metrics, want the paper's 4 (%d expected)", w.Head.Name, len(g.Means), len(w.Means))
		}
		for m, wantValue := range w.Means {
			if gotValue, ok := g.Means[m]; !ok || math.Abs(gotValue-wantValue) > metricTol {
				t.Errorf("%s %s = %v, want %v", w.Head.Name, m, gotValue, wantValue)
			}
		}
	}
	if got.Selected.Head.Name != want.Selected.Head.Name || got.SelectedIndex != want.SelectedIndex {
		t.Errorf("selected %s (#%d), want %s (#%d)", got.Selected.Head.Name, got.SelectedIndex, want.Selected.Head.Name, want.SelectedIndex)
	}
	if got.Questions != want.Questions || got.Excluded != want.Excluded {
		t.Errorf("questions %d excluded %d, want %d %d", got.Questions, got.Excluded, want.Questions, want.Excluded)
	}
}
