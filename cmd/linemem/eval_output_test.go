package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// evalOutputArgs are the eval and sweep lines whose output the golden files
// in testdata hold, on the conformance database db: the paper's protocol, text
// and JSON.
func evalOutputArgs(db string) map[string][]string {
	set := []string{"--db", db, "--questions", conformance.Path("questions.jsonl"), "--qrels", conformance.Path("qrels.txt")}
	eval := append([]string{"eval", "--retriever", "raw_text_bm25,hybrid:embedding_text_bm25+embedding_text_vector@0.45", "--bootstrap", "200"}, set...)
	sweep := append([]string{"sweep"}, set...)
	return map[string][]string{
		"eval.txt":   eval,
		"eval.json":  append(slices.Clone(eval), "--json"),
		"sweep.txt":  sweep,
		"sweep.json": append(slices.Clone(sweep), "--json"),
	}
}

// TestEvalAndSweepOutputGolden pins the text and JSON of eval and sweep under
// the paper's protocol byte for byte; -update rewrites testdata/.
func TestEvalAndSweepOutputGolden(t *testing.T) {
	db := conformanceDB(t)
	for name, args := range evalOutputArgs(db) {
		t.Run(name, func(t *testing.T) {
			got := run(t, args...)
			path := filepath.Join("testdata", name)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("linemem %s:\n%s\nwant (%s):\n%s", strings.Join(args, " "), got, path, want)
			}
		})
	}
}

// TestEvalAndSweepReportEveryProtocolMetric adds a metric of the registry to
// the protocol (--metrics) and finds it, after the paper's four, in the text
// and JSON of both commands; an unknown metric is a usage error.
func TestEvalAndSweepReportEveryProtocolMetric(t *testing.T) {
	db := conformanceDB(t)
	const added = "ndcg@10"
	if _, err := metrics.Parse(added); err != nil {
		t.Fatal(err)
	}
	list := strings.Join(append(experiment.PaperProtocol().Metrics, added), ",")
	args := evalOutputArgs(db)
	with := func(name string) []string { return append(slices.Clone(args[name]), "--metrics", list) }
	last := experiment.PaperProtocol().Metrics[len(experiment.PaperProtocol().Metrics)-1]

	evalText := run(t, with("eval.txt")...)
	if header, _, _ := strings.Cut(evalText, "\n"); !strings.HasSuffix(strings.TrimSpace(header), added+" [95% CI]") {
		t.Errorf("eval header %q does not end in the added metric with its interval", header)
	}
	sweepText := run(t, with("sweep.txt")...)
	if header, _, _ := strings.Cut(sweepText, "\n"); !strings.HasSuffix(strings.TrimSpace(header), added) {
		t.Errorf("sweep header %q does not end in the added metric", header)
	}
	if !strings.Contains(sweepText, "  "+added+" ") {
		t.Errorf("sweep's selected line lacks %s:\n%s", added, sweepText)
	}

	evalOut := run(t, with("eval.json")...)
	var ev evalJSON
	if err := json.Unmarshal([]byte(evalOut), &ev); err != nil {
		t.Fatal(err)
	}
	for _, r := range ev.Retrievers {
		if v, ok := r.Means[added]; !ok || v < 0 || v > 1 {
			t.Errorf("%s: %s = %v (present %v), want a mean in [0, 1]", r.Head.Name, added, v, ok)
		}
		if ci, ok := r.Tail.CI[added]; !ok || ci[0] > r.Means[added] || ci[1] < r.Means[added] {
			t.Errorf("%s: interval %v of %s does not hold its mean %v", r.Head.Name, ci, added, r.Means[added])
		}
		for typ, tm := range r.Tail.ByType {
			if _, ok := tm.Means[added]; !ok {
				t.Errorf("%s, type %s: no %s", r.Head.Name, typ, added)
			}
		}
	}
	if i, j := strings.Index(evalOut, `"`+last+`"`), strings.Index(evalOut, `"`+added+`"`); i < 0 || j < i {
		t.Errorf("eval --json: %s at %d, not after %s at %d", added, j, last, i)
	}
	sweepOut := run(t, with("sweep.json")...)
	var sw sweepJSON
	if err := json.Unmarshal([]byte(sweepOut), &sw); err != nil {
		t.Fatal(err)
	}
	if _, ok := sw.Selected.Means[added]; !ok || len(sw.Configurations) == 0 {
		t.Fatalf("sweep --json: selected %v lacks %s", sw.Selected.Means, added)
	}
	for _, cfg := range sw.Configurations {
		if _, ok := cfg.Means[added]; !ok {
			t.Errorf("sweep --json: %s lacks %s", cfg.Head.Name, added)
		}
	}

	for _, name := range []string{"eval.txt", "sweep.txt"} {
		bad := append(slices.Clone(args[name]), "--metrics", "recall@5,bogus@3")
		if code, _, stderr := runCode(bad...); code != 2 || !strings.Contains(stderr, "bogus@3") {
			t.Errorf("%s --metrics with an unknown metric: exit %d, stderr %q; want 2 naming it", name, code, stderr)
		}
	}
}
