package retrieval_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/trec"
)

// Tolerances of the conformance pack (its README): ranks must match except
// that items whose scores differ by less than tieTol may swap; scores agree
// to scoreTol. Both are relative to max(1, |score|).
const (
	tieTol   = 1e-6
	scoreTol = 1e-9
)

// confModel names the conformance vectors; the pack leaves the name open.
const confModel = "conf"

// TestConformanceRuns rebuilds every run of expected_runs/ and compares it
// with the file.
func TestConformanceRuns(t *testing.T) {
	corpus := readCorpus(t)
	source := readVectorSource(t)
	qs := conformance.Questions(t)
	files, err := filepath.Glob(conformance.Path("expected_runs", "*.run"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no expected runs found: %v", err)
	}
	builder := retrieval.NewBuilder(corpus, source, retrieval.Options{EmbedModel: confModel})
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".run")
		t.Run(name, func(t *testing.T) {
			r, err := builder.Build(name)
			if err != nil {
				t.Fatal(err)
			}
			if r.Name() != name {
				t.Errorf("Name() = %q, want %q", r.Name(), name)
			}
			run := ranking.Run{}
			var qids []string
			for _, q := range qs {
				hits, err := r.Search(q.Question, 200)
				if err != nil {
					t.Fatal(err)
				}
				run[q.QID] = hits
				qids = append(qids, q.QID)
			}
			var buf bytes.Buffer
			if err := trec.WriteRun(&buf, qids, run, name); err != nil {
				t.Fatal(err)
			}
			got, err := trec.ReadRun("written run", &buf)
			if err != nil {
				t.Fatal(err)
			}
			want := conformance.ReadRunFile(t, file)
			for _, qid := range qids {
				compareRanking(t, qid, got[qid], want[qid])
			}
			for qid := range want {
				if !slices.Contains(qids, qid) {
					t.Errorf("expected run has unknown qid %s", qid)
				}
			}
		})
	}
}

// TestConformanceBatch checks that batched search gives the single-query
// rankings.
func TestConformanceBatch(t *testing.T) {
	builder := retrieval.NewBuilder(readCorpus(t), readVectorSource(t), retrieval.Options{EmbedModel: confModel})
	qs := conformance.Questions(t)
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Question
	}
	for _, name := range []string{"summary_bm25", "embedding_text_vector", "hybrid:raw_text_bm25+summary_vector@0.35", "rrf:summary_bm25+summary_vector", "zscore:embedding_text_bm25+embedding_text_vector@0.50"} {
		t.Run(name, func(t *testing.T) {
			r, err := builder.Build(name)
			if err != nil {
				t.Fatal(err)
			}
			batch, err := retrieval.SearchAll(r, texts, 5)
			if err != nil {
				t.Fatal(err)
			}
			for i, q := range texts {
				one, err := r.Search(q, 5)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(batch[i], one) {
					t.Errorf("%s: batch %v, single %v", qs[i].QID, batch[i], one)
				}
			}
		})
	}
}

// compareRanking applies the pack's rule: same chunks at the same ranks,
// except swaps among near-equal scores; every chunk's score within scoreTol.
func compareRanking(t *testing.T, qid string, got, want []ranking.Hit) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d hits, want %d", qid, len(got), len(want))
		return
	}
	wantScore := map[string]float64{}
	for _, h := range want {
		wantScore[h.ChunkID] = h.Score
	}
	for i, h := range got {
		ref, ok := wantScore[h.ChunkID]
		if !ok {
			// allowed only at the cut, tied with the expected last item
			if !near(h.Score, want[len(want)-1].Score, tieTol) {
				t.Errorf("%s rank %d: %s not in the expected run", qid, i+1, h.ChunkID)
			}
			continue
		}
		if !near(h.Score, ref, scoreTol) {
			t.Errorf("%s: %s score %v, want %v", qid, h.ChunkID, h.Score, ref)
		}
		if h.ChunkID != want[i].ChunkID && !near(ref, want[i].Score, tieTol) {
			t.Errorf("%s rank %d: %s (%v), want %s (%v)", qid, i+1, h.ChunkID, h.Score, want[i].ChunkID, want[i].Score)
		}
	}
}

func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

// readCorpus reads expected_chunks.jsonl and summaries.jsonl.
func readCorpus(t *testing.T) retrieval.Corpus {
	t.Helper()
	var c retrieval.Corpus
	for _, row := range conformance.ExpectedChunks(t) {
		c.Chunks = append(c.Chunks, chat.Chunk{ID: row.ChunkID, Source: row.Source, Index: row.ChunkIndex, StartAt: row.StartAt, EndAt: row.EndAt, MessageIDs: row.MessageIDs, RawText: row.RawText})
	}
	c.Summaries = map[string]string{}
	readJSONL(t, "summaries.jsonl", func(line []byte) error {
		var row struct {
			ChunkID string `json:"chunk_id"`
			Summary string `json:"summary"`
		}
		if err := json.Unmarshal(line, &row); err != nil {
			return err
		}
		c.Summaries[row.ChunkID] = row.Summary
		return nil
	})
	return c
}

// fileVectors is a VectorSource over the pack's JSONL vectors; within a file
// the last line for a key wins (spec §9).
type fileVectors struct {
	chunks  map[string]map[string][]float32 // rep → chunk ID → vector
	queries map[string][]float32            // question → vector
}

func (v fileVectors) ChunkVectors(rep, model string) ([]string, int, []float32, error) {
	byID, ok := v.chunks[rep]
	if !ok || model != confModel {
		return nil, 0, nil, fmt.Errorf("no %s vectors for model %q", rep, model)
	}
	var ids []string
	for id := range byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	dim := len(byID[ids[0]])
	var data []float32
	for _, id := range ids {
		data = append(data, byID[id]...)
	}
	return ids, dim, data, nil
}

func (v fileVectors) QueryVector(model, question string) ([]float32, bool, error) {
	if model != confModel {
		return nil, false, nil
	}
	q, ok := v.queries[question]
	return q, ok, nil
}

func readVectorSource(t *testing.T) fileVectors {
	t.Helper()
	read := func(file string) map[string][]float32 {
		out := map[string][]float32{}
		readJSONL(t, file, func(line []byte) error {
			var row struct {
				Key    string    `json:"key"`
				Vector []float32 `json:"vector"`
			}
			if err := json.Unmarshal(line, &row); err != nil {
				return err
			}
			out[row.Key] = row.Vector
			return nil
		})
		return out
	}
	return fileVectors{
		chunks: map[string]map[string][]float32{
			"summary":        read("vectors_summary.jsonl"),
			"embedding_text": read("vectors_embedding_text.jsonl"),
		},
		queries: read("query_vectors.jsonl"),
	}
}

func readJSONL(t *testing.T, name string, row func([]byte) error) {
	t.Helper()
	f, err := os.Open(conformance.Path(name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := row(sc.Bytes()); err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
