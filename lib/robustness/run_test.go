package robustness_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/lineexport"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/robustness"
)

// hashVectors embeds a text as its character bigrams hashed into dim
// buckets: a cheap, deterministic stand-in for a fitted embedder.
type hashVectors struct {
	texts map[string][]string // by representation, in chunk order
	ids   []string
}

const hashDim = 64

func hashEmbed(text string) []float32 {
	v := make([]float32, hashDim)
	rs := []rune(text)
	for i := 0; i+1 < len(rs); i++ {
		h := fnv.New32a()
		h.Write([]byte(string(rs[i : i+2])))
		v[h.Sum32()%hashDim]++
	}
	return v
}

func (h hashVectors) ChunkVectors(rep, model string) ([]string, int, []float32, error) {
	texts, ok := h.texts[rep]
	if !ok {
		return nil, 0, nil, fmt.Errorf("no %s texts", rep)
	}
	data := make([]float32, 0, len(texts)*hashDim)
	for _, t := range texts {
		data = append(data, hashEmbed(t)...)
	}
	return h.ids, hashDim, data, nil
}

func (h hashVectors) QueryVector(model, question string) ([]float32, bool, error) {
	return hashEmbed(question), true, nil
}

// prepareCheaply is a Preparer that reads the generated sources and
// summaries as ingest would (lineexport, chunking with the paper's defaults),
// but keeps them in memory, embeds with hashVectors, evaluates every fifth
// question and bootstraps 200 resamples, to keep tests fast.
func prepareCheaply(dataDir, dbPath string) (*experiment.Setup, io.Closer, error) {
	paths, err := filepath.Glob(filepath.Join(dataDir, "sources", "*.json"))
	if err != nil {
		return nil, nil, err
	}
	var chunks []chat.Chunk
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, nil, err
		}
		res, err := lineexport.ReadJSON(filepath.Base(p), f)
		f.Close()
		if err != nil {
			return nil, nil, err
		}
		cs, err := chunking.Build(res.Messages, chunking.DefaultOptions())
		if err != nil {
			return nil, nil, err
		}
		chunks = append(chunks, cs...)
	}
	raw, err := os.ReadFile(filepath.Join(dataDir, "summaries.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	sums := map[string]string{}
	for line := range strings.Lines(string(raw)) {
		var s struct {
			ChunkID string `json:"chunk_id"`
			Summary string `json:"summary"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			return nil, nil, err
		}
		sums[s.ChunkID] = s.Summary
	}
	vs := hashVectors{texts: map[string][]string{}}
	for _, c := range chunks {
		vs.ids = append(vs.ids, c.ID)
	}
	for _, rep := range []string{represent.Summary, represent.EmbeddingTextRep} {
		if vs.texts[rep], err = represent.Texts(rep, chunks, sums); err != nil {
			return nil, nil, err
		}
	}
	qs, qrels, err := experiment.LoadQuestionSet(filepath.Join(dataDir, "questions.jsonl"), filepath.Join(dataDir, "qrels.txt"))
	if err != nil {
		return nil, nil, err
	}
	var every5 []questions.Question
	for i := 0; i < len(qs); i += 5 {
		every5 = append(every5, qs[i])
	}
	b := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks, Summaries: sums}, vs, retrieval.Options{EmbedModel: "hash-bigram-64"})
	setup := experiment.NewSetup(every5, qrels, b)
	setup.Protocol.B = 200
	return setup, io.NopCloser(nil), nil
}

func runJSON(t *testing.T, o robustness.Options) []byte {
	t.Helper()
	rs, err := robustness.Run(o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRunIndependentOfOrderAndWorkers: the per-seed results, and so every
// table made from them, are the same bytes whatever the order of the seeds
// and the number of workers.
func TestRunIndependentOfOrderAndWorkers(t *testing.T) {
	var log bytes.Buffer
	one := runJSON(t, robustness.Options{Seeds: []uint64{2, 3}, Workers: 1, Prepare: prepareCheaply, Log: &log})
	two := runJSON(t, robustness.Options{Seeds: []uint64{3, 2}, Workers: 2, Prepare: prepareCheaply, WorkDir: t.TempDir()})
	if !bytes.Equal(one, two) {
		t.Fatalf("results differ between 1 worker in order 2,3 and 2 workers in order 3,2:\n%s\n%s", one, two)
	}
	var rs []robustness.SeedResult
	if err := json.Unmarshal(one, &rs); err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Seed != 2 || rs[1].Seed != 3 {
		t.Fatalf("results not ascending by seed: %+v", rs)
	}
	for _, r := range rs {
		if len(r.Singles) != len(experiment.PaperProtocol().Singles) || r.Questions != 20 || r.Chunks == 0 {
			t.Errorf("seed %d: %d singles, %d questions, %d chunks", r.Seed, len(r.Singles), r.Questions, r.Chunks)
		}
		best, _ := r.Single(r.BestSingle)
		g := r.Gain[experiment.PaperProtocol().SelectionMetric].Mean
		if want := r.Selected.Metrics[experiment.PaperProtocol().SelectionMetric].Mean - best.Metrics[experiment.PaperProtocol().SelectionMetric].Mean; math.Abs(g-want) > 1e-9 {
			t.Errorf("seed %d: gain %v, want selected − best = %v", r.Seed, g, want)
		}
		for _, e := range r.Singles {
			if e.Metrics[experiment.PaperProtocol().SelectionMetric].Mean > best.Metrics[experiment.PaperProtocol().SelectionMetric].Mean {
				t.Errorf("seed %d: %s beats the best single %s", r.Seed, e.Name, r.BestSingle)
			}
		}
	}
	if got := strings.Count(log.String(), "robustness: ["); got != 2 {
		t.Errorf("progress lines: %d, want 2:\n%s", got, log.String())
	}
}

func TestRunErrors(t *testing.T) {
	failing := func(dataDir, dbPath string) (*experiment.Setup, io.Closer, error) {
		return nil, nil, errors.New("prepare failed")
	}
	tests := []struct {
		name string
		o    robustness.Options
		want string
	}{
		{"no preparer", robustness.Options{Seeds: []uint64{1}}, "no Preparer"},
		{"no seeds", robustness.Options{Prepare: failing}, "no seeds"},
		{"duplicate", robustness.Options{Seeds: []uint64{4, 2, 4}, Prepare: failing}, "seed 4 given twice"},
		{"failing seed", robustness.Options{Seeds: []uint64{5}, Prepare: failing}, "seed 5: prepare failed"},
		{"bad scale", robustness.Options{Seeds: []uint64{1}, Scale: "huge", Prepare: failing}, `scale "huge"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := robustness.Run(tt.o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
