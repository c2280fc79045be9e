package memory_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/lineexport"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/tokenize/bigram"
	"github.com/linemem/linemem/lib/tokenize/kagome"
	"github.com/linemem/linemem/lib/tokenize/paperregex"
	"github.com/linemem/linemem/lib/trec"
)

// measure turns on TestMeasureEverydayDefaults, the measurement behind the
// everyday defaults (docs/your-history.md, "Your own history"):
//
//	go test ./lib/memory -run MeasureEveryday -measure -v
var measure = flag.Bool("measure", false, "measure the everyday retrievers and tokenizers on the synthetic questions")

// vectorMap is an in-memory retrieval.VectorSource of one model.
type vectorMap struct {
	model   string
	dim     int
	ids     []string
	chunk   map[string][]float32 // rep → row-major vectors in ids order
	queries map[string][]float32
}

func (v *vectorMap) ChunkVectors(rep, model string) ([]string, int, []float32, error) {
	return v.ids, v.dim, v.chunk[rep], nil
}

func (v *vectorMap) QueryVector(model, q string) ([]float32, bool, error) {
	x, ok := v.queries[q]
	return x, ok, nil
}

// localVectors fits the local model on chunks as `linemem embed --provider
// lsa --rep raw_text` does and embeds raw_text and every question with it.
func localVectors(t *testing.T, chunks []chat.Chunk, qs []questions.Question) *vectorMap {
	texts, _, err := lsa.FitTexts(chunks, nil, represent.RawText, represent.DefaultEmbeddingCap)
	if err != nil {
		t.Fatal(err)
	}
	m, err := lsa.Fit(texts, lsa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := &vectorMap{model: m.Model(), dim: m.Dimension(), chunk: map[string][]float32{}, queries: map[string][]float32{}}
	for i, c := range chunks {
		v.ids = append(v.ids, c.ID)
		v.chunk[represent.RawText] = append(v.chunk[represent.RawText], m.Vector(texts[i])...)
	}
	for _, q := range qs {
		v.queries[q.Question] = m.Vector(q.Question)
	}
	return v
}

// score is the macro Recall@5, Success@1 and MRR@5 of retriever name over qs.
func score(t *testing.T, b *retrieval.Builder, name string, qs []questions.Question, qrels trec.Qrels) (r5, s1, mrr float64, ok bool) {
	r, err := b.Build(name)
	if err != nil {
		return 0, 0, 0, false
	}
	n := 0
	for _, q := range qs {
		judged := qrels[q.QID]
		if metrics.PrimaryGold(judged) == 0 {
			continue
		}
		hits, err := r.Search(q.Question, 5)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r5 += metrics.Recall(hits, judged, 5)
		s1 += metrics.Success(hits, judged, 1)
		mrr += metrics.MRR(hits, judged, 5)
		n++
	}
	if n == 0 {
		return 0, 0, 0, false
	}
	return r5 / float64(n), s1 / float64(n), mrr / float64(n), true
}

// TestMeasureEverydayDefaults compares the candidate everyday retrievers and
// tokenizers, without summaries (a personal history before any summarize),
// on the synthetic corpus and on small histories cut from it: for each of 40
// seeded draws, 5 questions whose primary gold is their only one, their gold
// chunks and random other chunks up to 16 chunks, the local model fitted on
// those 16. It prints Recall@5, Success@1 and MRR@5 per candidate, and the
// cost of a tokenizer's first use in a process.
func TestMeasureEverydayDefaults(t *testing.T) {
	if !*measure {
		t.Skip("run with -measure")
	}
	data := filepath.Join("..", "..", "data", "synthetic")
	st, err := store.Open(filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	inputs, problems := ingest.Collect([]string{filepath.Join(data, "sources")})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	ingest.Files(st, inputs, chunking.DefaultOptions(), func(_ int, _ ingest.Input, _ ingest.Report, err error) {
		if err != nil {
			t.Fatal(err)
		}
	})
	chunks, err := st.Chunks()
	if err != nil {
		t.Fatal(err)
	}
	qs, qrels, err := experiment.LoadQuestionSet(filepath.Join(data, "questions.jsonl"), filepath.Join(data, "qrels.txt"))
	if err != nil {
		t.Fatal(err)
	}

	firstUse := map[string]time.Duration{}
	for _, tok := range tokenize.Names() {
		start := time.Now()
		tk, err := tokenize.New(tok)
		if err != nil {
			t.Fatal(err)
		}
		tk.Tokens("飛行機の予約")
		firstUse[tok] = time.Since(start)
		start = time.Now()
		for _, c := range chunks {
			tk.Tokens(c.RawText)
		}
		fmt.Printf("tokenizer %-12s first use %10s, raw_text of %d chunks %8s\n", tok, firstUse[tok].Round(time.Microsecond), len(chunks), time.Since(start).Round(time.Millisecond))
	}
	for tok, d := range firstUse {
		if tok != kagome.Name && firstUse[kagome.Name] < kagomeLoadFactor*d {
			t.Errorf("kagome's first use %s is not %d× %s's %s, as defaults.go says", firstUse[kagome.Name], kagomeLoadFactor, tok, d)
		}
	}

	candidates := func() []string {
		var out []string
		for _, tok := range tokenize.Names() {
			out = append(out, "bm25/"+tok, "rrf/"+tok, "hybrid0.45/"+tok)
		}
		return append(out, "vector/")
	}()
	name := func(c string) (string, string) {
		kind, tok, _ := strings.Cut(c, "/")
		switch kind {
		case "bm25":
			return "raw_text_bm25", tok
		case "rrf":
			return "rrf:raw_text_bm25+raw_text_vector", tok
		case "hybrid0.45":
			return "hybrid:raw_text_bm25+raw_text_vector@0.45", tok
		}
		return "raw_text_vector", ""
	}
	evalOn := func(cs []chat.Chunk, qs []questions.Question, qrels trec.Qrels) map[string][3]float64 {
		vm := localVectors(t, cs, qs)
		out := map[string][3]float64{}
		for _, c := range candidates {
			n, tok := name(c)
			b := retrieval.NewBuilder(retrieval.Corpus{Chunks: cs}, vm, retrieval.Options{Tokenizer: tok, EmbedModel: vm.model})
			if r5, s1, mrr, ok := score(t, b, n, qs, qrels); ok {
				out[c] = [3]float64{r5, s1, mrr}
			}
		}
		return out
	}

	full := evalOn(chunks, qs, qrels)
	small := map[string][3]float64{}
	byID := map[string]chat.Chunk{}
	for _, c := range chunks {
		byID[c.ID] = c
	}
	var single []questions.Question // questions with exactly one primary gold chunk
	for _, q := range qs {
		if metrics.PrimaryGold(qrels[q.QID]) == 1 {
			single = append(single, q)
		}
	}
	const draws, perDraw, size = 40, 5, 16
	rng := rand.New(rand.NewPCG(11, 16))
	for range draws {
		pick := rng.Perm(len(single))[:perDraw]
		keep := map[string]bool{}
		var sub []questions.Question
		subQrels := trec.Qrels{}
		for _, i := range pick {
			q := single[i]
			sub = append(sub, q)
			subQrels[q.QID] = map[string]int{}
			for id, rel := range qrels[q.QID] {
				if rel == 2 {
					keep[id] = true
					subQrels[q.QID][id] = rel
				}
			}
		}
		for _, i := range rng.Perm(len(chunks)) {
			if len(keep) >= size {
				break
			}
			keep[chunks[i].ID] = true
		}
		var cs []chat.Chunk
		for _, c := range chunks {
			if keep[c.ID] {
				cs = append(cs, c)
			}
		}
		for c, v := range evalOn(cs, sub, subQrels) {
			s := small[c]
			for i := range v {
				s[i] += v[i] / draws
			}
			small[c] = s
		}
	}
	sort.Strings(candidates)
	fmt.Printf("\n%-24s %28s   %28s\n", "", "synthetic (all chunks)", fmt.Sprintf("%d histories of %d chunks", draws, size))
	fmt.Printf("%-24s %9s %9s %9s   %9s %9s %9s\n", "candidate", "R@5", "S@1", "MRR@5", "R@5", "S@1", "MRR@5")
	for _, c := range candidates {
		f, s := full[c], small[c]
		fmt.Printf("%-24s %9.3f %9.3f %9.3f   %9.3f %9.3f %9.3f\n", c, f[0], f[1], f[2], s[0], s[1], s[2])
	}
	fmt.Fprintln(os.Stdout)
	for c, want := range quotedDefaults {
		got := [4]float64{full[c][0], full[c][1], small[c][0], small[c][1]}
		for i := range want {
			if math.Abs(got[i]-want[i]) > quotedTolerance {
				t.Errorf("%s: %s = %.4f, docs/your-history.md and defaults.go quote %.3f", c, quotedColumns[i], got[i], want[i])
			}
		}
	}
}

// quotedDefaults are the figures docs/your-history.md's everyday-defaults table and
// DefaultRetriever's doc quote, by candidate: synthetic Recall@5 and
// Success@1, then the 16-chunk histories' Recall@5 and Success@1.
var quotedDefaults = map[string][4]float64{
	"bm25/" + paperregex.Name:   {0.476, 0.340, 0.795, 0.710},
	"bm25/" + bigram.Name:       {0.552, 0.410, 0.940, 0.775},
	"bm25/" + kagome.Name:       {0.628, 0.420, 0.970, 0.840},
	"hybrid0.45/" + bigram.Name: {0.473, 0.270, 0.945, 0.770},
	"rrf/" + bigram.Name:        {0.371, 0.210, 0.940, 0.775},
	"rrf/" + kagome.Name:        {0.476, 0.270, 0.970, 0.860},
	"vector/":                   {0.282, 0.120, 0.940, 0.750},
}

var quotedColumns = [4]string{"synthetic Recall@5", "synthetic Success@1", "16-chunk Recall@5", "16-chunk Success@1"}

// quotedTolerance is half a unit of the third decimal: the figures are
// quoted to three decimals and the measurement is deterministic (the
// committed corpus, seeded draws, a local model fitted without randomness),
// so a figure that moves by more than its rounding is a figure to requote.
const quotedTolerance = 0.0005

// kagomeLoadFactor is how many times another tokenizer's first use kagome's
// first use (loading its dictionary) takes at least, as DefaultTokenizer's
// doc says: a ratio, because the seconds depend on the machine.
const kagomeLoadFactor = 100

// paperDir is the folder `linemem synth --scale paper --out DIR` wrote, for
// TestMeasureAppend:
//
//	go test ./lib/memory -run MeasureAppend -measure -paper DIR -v
var paperDir = flag.String("paper", "", "paper-scale synthetic data folder for TestMeasureAppend")

// TestMeasureAppend counts, for a newer export that holds the old messages
// plus 1% more at the end of each source, how many chunks keep their ID
// (and with it their summary and vectors) and how many are new: the work
// `summarize` and `embed` send again.
func TestMeasureAppend(t *testing.T) {
	if !*measure || *paperDir == "" {
		t.Skip("run with -measure -paper DIR")
	}
	paths, err := filepath.Glob(filepath.Join(*paperDir, "sources", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no sources in %s: %v", *paperDir, err)
	}
	opts := chunking.DefaultOptions()
	var oldChunks, newChunks, kept, messages, appended int
	for _, p := range paths {
		res, err := lineexport.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all := res.Messages
		cut := len(all) - len(all)/100 // the older export: all but the last 1%
		before, err := chunking.Build(all[:cut], opts)
		if err != nil {
			t.Fatal(err)
		}
		after, err := chunking.Build(all, opts)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, c := range before {
			ids[c.ID] = true
		}
		for _, c := range after {
			if ids[c.ID] {
				kept++
			}
		}
		oldChunks += len(before)
		newChunks += len(after)
		messages += len(all)
		appended += len(all) - cut
	}
	fmt.Printf("%d sources, %d messages, %d appended (1%% of each source)\n", len(paths), messages, appended)
	fmt.Printf("chunks before %d, after %d; kept %d, lost %d, to summarize and embed %d (%.2f%% of the new export)\n",
		oldChunks, newChunks, kept, oldChunks-kept, newChunks-kept, 100*float64(newChunks-kept)/float64(newChunks))
	// docs/your-history.md quotes these counts for `linemem synth --scale paper`
	// (seed 1): chunking is deterministic, so they hold exactly.
	if got, want := [3]int{kept, oldChunks, newChunks - kept}, [3]int{22088, 22098, 226}; got != want || newChunks != 22314 {
		t.Errorf("kept %d of %d chunks, %d of %d new; docs/your-history.md quotes %d of %d kept, %d of 22,314 new", got[0], got[1], got[2], newChunks, want[0], want[1], want[2])
	}
}
