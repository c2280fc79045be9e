// Command benchvectors writes seeded random vectors as vectors JSONL (spec
// §11, {"key", "vector"} per line) for the end-to-end benchmark
// (scripts/bench-e2e.sh): one file per chunk representation, keyed by the
// chunk IDs of a summaries JSONL file, and one of query vectors keyed by the
// question texts of a questions JSONL file. Elements are N(0, 1/dim) draws
// rounded to 5 decimals (about 8 bytes per element, the size of the paper's
// JSON vector cache); the same seed writes the same bytes.
//
//	go run ./scripts/benchvectors --summaries S.jsonl --questions Q.jsonl --out DIR
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

func main() {
	summaries := flag.String("summaries", "", "summaries JSONL `FILE` whose chunk_ids key the chunk vectors")
	questions := flag.String("questions", "", "questions JSONL `FILE` whose question texts key the query vectors")
	out := flag.String("out", "", "output `DIR`")
	dim := flag.Int("dim", 1536, "vector dimension")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *summaries == "" || *questions == "" || *out == "" || *dim <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*summaries, *questions, *out, *dim, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "benchvectors:", err)
		os.Exit(1)
	}
}

func run(summaries, questions, out string, dim int, seed uint64) error {
	chunkIDs, err := readField(summaries, "chunk_id")
	if err != nil {
		return err
	}
	texts, err := readField(questions, "question")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for i, f := range []struct {
		name string
		keys []string
	}{
		{"vectors_summary.jsonl", chunkIDs},
		{"vectors_embedding_text.jsonl", chunkIDs},
		{"vectors_queries.jsonl", texts},
	} {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		if err := write(filepath.Join(out, f.name), f.keys, dim, rng); err != nil {
			return err
		}
	}
	return nil
}

// readField returns the string field of every line of a JSONL file.
func readField(path, field string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var keys []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for line := 1; sc.Scan(); line++ {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		s, ok := v[field].(string)
		if !ok {
			return nil, fmt.Errorf("%s:%d: expected a string field %q", path, line, field)
		}
		keys = append(keys, s)
	}
	return keys, sc.Err()
}

func write(path string, keys []string, dim int, rng *rand.Rand) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	scale := 1 / math.Sqrt(float64(dim))
	var buf []byte
	for _, k := range keys {
		key, err := json.Marshal(k)
		if err != nil {
			return err
		}
		buf = append(buf[:0], `{"key":`...)
		buf = append(buf, key...)
		buf = append(buf, `,"vector":[`...)
		for i := range dim {
			if i > 0 {
				buf = append(buf, ',')
			}
			x := math.Round(rng.NormFloat64()*scale*1e5) / 1e5
			buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
		}
		buf = append(buf, "]}\n"...)
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
