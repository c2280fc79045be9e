package reproduce_test

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/reproduce"
	"github.com/linemem/linemem/lib/trec"
)

// trecEvalMeasures maps linemem's metrics to trec_eval's per-question
// measures under `-c -M 5 -l 2`: recall_5 and success_5 count relevance ≥ 2
// (primary gold), recip_rank sees only the top 5 (-M 5), and ndcg_cut_5's
// linear gain equals linemem's 2^rel − 1 once qrels map relevance 2 to 3.
var trecEvalMeasures = map[string]string{
	metrics.Recall5:  "recall_5",
	metrics.MRR5:     "recip_rank",
	metrics.NDCG5:    "ndcg_cut_5",
	metrics.Success5: "success_5",
}

// trecEvalSource is the trec_eval source tree: TREC_EVAL_SRC, else
// ../shared/tools/trec_eval beside the repository.
func trecEvalSource(root string) string {
	if dir := os.Getenv("TREC_EVAL_SRC"); dir != "" {
		return dir
	}
	return filepath.Join(filepath.Dir(root), "shared", "tools", "trec_eval")
}

// trecEvalPrintFiles print trec_eval's values, with "%6.4f" (4 decimals);
// the copy buildTrecEval compiles prints "%.17g", every digit of a float64,
// so that values can be compared to 1e-12. Nothing else is changed.
var trecEvalPrintFiles = []string{"meas_print_single.c", "meas_print_final.c"}

// buildTrecEval compiles trec_eval from a copy of its source, printing
// full precision (trecEvalPrintFiles), into build/trec_eval-full-precision/
// and returns the binary, or skips when there is no source or no C compiler.
func buildTrecEval(t *testing.T, root string) string {
	t.Helper()
	src := trecEvalSource(root)
	if _, err := os.Stat(filepath.Join(src, "trec_eval.c")); err != nil {
		t.Skipf("no trec_eval source at %s (set TREC_EVAL_SRC)", src)
	}
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler (cc) to build trec_eval")
	}
	dir := filepath.Join(root, "build", "trec_eval-full-precision")
	bin := filepath.Join(dir, "trec_eval")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	// On a fresh clone build/ does not exist yet, and cp -R cannot create
	// the copy's parent.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	if out, err := exec.Command("cp", "-R", src, tmp).CombinedOutput(); err != nil {
		t.Fatalf("copying %s: %v\n%s", src, err, out)
	}
	for _, name := range trecEvalPrintFiles {
		path := filepath.Join(tmp, name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte("%6.4f")) {
			t.Fatalf("%s prints no %%6.4f: not the trec_eval 10 this test patches", path)
		}
		if err := os.WriteFile(path, bytes.ReplaceAll(b, []byte("%6.4f"), []byte("%.17g")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("make", "CC=cc")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building trec_eval: %v\n%s", err, out)
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestTrecEvalAgrees runs trec_eval on the synthetic corpus's runs and holds
// its per-question Recall@5, MRR@5, nDCG@5 and Success@5 equal to linemem's
// within 1e-12. Run files carry each hit's rank as its score (N − rank + 1),
// so trec_eval, which re-sorts tied scores by document ID, keeps linemem's
// order (spec §8–§9); qrels map relevance 2 to 3 (docs/reproducing.md, "trec_eval").
func TestTrecEvalAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("prepares the synthetic corpus")
	}
	root, err := reproduce.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	bin := buildTrecEval(t, root)
	s, err := reproduce.Prepare(paperOptions(filepath.Join(root, "data", "synthetic"), filepath.Join(t.TempDir(), "synthetic.db"), 1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	evs, err := s.Singles()
	if err != nil {
		t.Fatal(err)
	}
	best, _, err := s.Selected()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, ev := range append(evs, best) {
		t.Run(ev.Name, func(t *testing.T) {
			compareWithTrecEval(t, bin, dir, s.Qrels, ev)
		})
	}
}

func compareWithTrecEval(t *testing.T, bin, dir string, qrels ranking.Qrels, ev *experiment.Evaluation) {
	res := ev.Result
	mapped := ranking.Qrels{}
	run := ranking.Run{}
	for _, qid := range res.QIDs {
		mapped[qid] = map[string]int{}
		for doc, rel := range qrels[qid] {
			if rel == 2 {
				rel = 3
			}
			mapped[qid][doc] = rel
		}
		hits := ev.Run[qid]
		ranked := make([]ranking.Hit, len(hits))
		for i, h := range hits {
			ranked[i] = ranking.Hit{ChunkID: h.ChunkID, Score: float64(len(hits) - i)}
		}
		run[qid] = ranked
	}
	name := strings.NewReplacer(":", "_", "+", "_", "@", "_").Replace(ev.Name)
	qrelsPath, runPath := filepath.Join(dir, name+".qrels"), filepath.Join(dir, name+".run")
	var qb, rb bytes.Buffer
	if err := trec.WriteQrels(&qb, mapped); err != nil {
		t.Fatal(err)
	}
	if err := trec.WriteRun(&rb, res.QIDs, run, "linemem"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(qrelsPath, qb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(runPath, rb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-q", "-c", "-M", "5", "-l", "2", "-m", "recall.5", "-m", "recip_rank", "-m", "ndcg_cut.5", "-m", "success.5", qrelsPath, runPath).Output()
	if err != nil {
		t.Fatalf("trec_eval: %v", err)
	}
	got := map[string]map[string]float64{} // measure → qid → value
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("trec_eval line %q: want measure, qid, value", line)
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatalf("trec_eval line %q: %v", line, err)
		}
		if got[f[0]] == nil {
			got[f[0]] = map[string]float64{}
		}
		got[f[0]][f[1]] = v
	}
	compared := 0
	for metric, measure := range trecEvalMeasures {
		scores := res.Scores(metric)
		for i, qid := range res.QIDs {
			v, ok := got[measure][qid]
			if !ok {
				// trec_eval prints no line for a question without hits; -c
				// counts it as 0 in "all", as linemem does.
				if len(ev.Run[qid]) != 0 || scores[i] != 0 {
					t.Errorf("%s %s: no trec_eval value; linemem %v with %d hits", measure, qid, scores[i], len(ev.Run[qid]))
				}
				continue
			}
			if math.Abs(v-scores[i]) > 1e-12 {
				t.Errorf("%s %s: trec_eval %v, linemem %v", measure, qid, v, scores[i])
			}
			compared++
		}
		if all, want := got[measure]["all"], res.Mean[metric]; math.Abs(all-want) > 1e-12 {
			t.Errorf("%s all: trec_eval %v, linemem mean %v", measure, all, want)
		}
	}
	if compared == 0 {
		t.Fatal("no per-question value compared")
	}
	t.Logf("%d per-question values compared over %d questions", compared, len(res.QIDs))
}
