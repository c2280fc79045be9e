package benchmark

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/reproduce"
	"github.com/linemem/linemem/lib/robustness"
	"github.com/linemem/linemem/lib/study"
)

// RunUsers prepares each folder of dirs (database o.Work/user-NN.db) under
// o.Options and runs robustness.Protocol on it; user k (from 1, in dirs
// order) is recorded as seed k. Each user's hybrid gain is also held out
// (beyond.HeldOutGain within the user's questions, beyond.OtherCorporaGains
// across users). The aggregate uses o.Protocol's B and seed.
func RunUsers(o Options, dirs []string) (*reproduce.Users, error) {
	base := o.Options
	var results []robustness.SeedResult
	var sels []beyond.Selection
	var gains []beyond.CorpusGain
	var models []string // the local embedder's dimension follows the corpus size
	for i, dir := range dirs {
		s, err := prepareUser(o, i, dir)
		if err != nil {
			return nil, err
		}
		r, err := robustness.Protocol(s.Setup)
		var g beyond.CorpusGain
		var sel beyond.Selection
		if err == nil {
			g, sel, err = beyond.HeldOutGain(s.Outcome)
		}
		if cerr := s.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("user %d (%s): %w", i+1, dir, err)
		}
		if !slices.Contains(models, s.EmbedModel) {
			models = append(models, s.EmbedModel)
		}
		r.Seed, r.Chunks = uint64(i+1), len(s.Chunks)
		results = append(results, r)
		sels, gains = append(sels, sel), append(gains, g)
		fmt.Fprintf(base.Log, "  user %d/%d: %d chunks, %d questions\n", i+1, len(dirs), r.Chunks, r.Questions)
	}
	sum, err := robustness.Aggregate(results, base.Protocol)
	if err != nil {
		return nil, err
	}
	slices.Sort(models)
	beyond.OtherCorporaGains(gains, sels, base.Protocol)
	return &reproduce.Users{Dataset: o.Name, Summary: sum, Opts: base, EmbedModel: strings.Join(models, ", "), HeldOut: gains}, nil
}

// WriteDatasetInfo copies a converted folder's dataset.json into outDir
// without its user list (user IDs of a data set are not needed to read the
// aggregates) and returns the file written.
func WriteDatasetInfo(dataDir, outDir string) (string, error) {
	in := filepath.Join(dataDir, datafolder.DatasetFile)
	b, err := os.ReadFile(in)
	if err != nil {
		return "", fmt.Errorf("%w (written by `linemem datasets convert`)", err)
	}
	var info map[string]any
	if err := json.Unmarshal(b, &info); err != nil {
		return "", fmt.Errorf("%s: %w", in, err)
	}
	if users, ok := info["users"].([]any); ok {
		info["users"] = len(users)
	}
	path := filepath.Join(outDir, datafolder.DatasetFile)
	return path, report.WriteJSON(path, info)
}

// ShipVectors writes the study's vectors into each per-user folder of dirs
// (vectors_summary.jsonl, vectors_embedding_text.jsonl, query_vectors.jsonl,
// which study.Prepare imports as study.ImportedModel), restricted
// to the chunks of that folder's summaries.jsonl and the questions of its
// questions.jsonl. Every user is then searched with one embedder fitted
// once on the pooled corpus, as the paper uses one embedding model, instead
// of a local one refitted on each small history.
func ShipVectors(s *study.Study, dirs []string) error {
	type set struct {
		ids  []string
		dim  int
		data []float32
	}
	sets := map[string]set{}
	for _, rep := range study.VectorReps {
		ids, dim, data, err := s.Store.ChunkVectors(rep, s.EmbedModel)
		if err != nil {
			return err
		}
		sets[rep] = set{ids, dim, data}
	}
	for _, dir := range dirs {
		keep := map[string]bool{}
		if err := jsonlKeys(filepath.Join(dir, datafolder.SummariesFile), "chunk_id", keep); err != nil {
			return err
		}
		for _, f := range []struct{ rep, file string }{{represent.Summary, datafolder.SummaryVectorsFile}, {represent.EmbeddingTextRep, datafolder.EmbeddingVectorFile}} {
			v := sets[f.rep]
			var b strings.Builder
			for i, id := range v.ids {
				if keep[id] {
					writeVectorLine(&b, id, v.data[i*v.dim:(i+1)*v.dim])
				}
			}
			if err := os.WriteFile(filepath.Join(dir, f.file), []byte(b.String()), 0o644); err != nil {
				return err
			}
		}
		qs := map[string]bool{}
		if err := jsonlKeys(filepath.Join(dir, datafolder.QuestionsFile), "question", qs); err != nil {
			return err
		}
		var b strings.Builder
		for _, q := range slices.Sorted(maps.Keys(qs)) {
			vec, found, err := s.Store.QueryVector(s.EmbedModel, q)
			if err != nil {
				return err
			}
			if !found {
				return fmt.Errorf("%s: no query vector of %s for a question of %s", s.Opts.DBPath, s.EmbedModel, dir)
			}
			writeVectorLine(&b, q, vec)
		}
		if err := os.WriteFile(filepath.Join(dir, datafolder.QueryVectorsFile), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeVectorLine appends {"key":KEY,"vector":[…]} and a newline to b, each
// component in the shortest form that reads back as the same float32.
func writeVectorLine(b *strings.Builder, key string, vec []float32) {
	k, _ := json.Marshal(key)
	b.WriteString(`{"key":`)
	b.Write(k)
	b.WriteString(`,"vector":[`)
	for i, x := range vec {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	b.WriteString("]}\n")
}

// jsonlKeys adds the string field of every line of a JSONL file to keys; a
// line that does not decode is an error naming FILE:LINE.
func jsonlKeys(path, field string, keys map[string]bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			return fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		if v, ok := m[field].(string); ok {
			keys[v] = true
		}
	}
	return nil
}

// prepareUser prepares user i's folder dir (counted from 0) as a study of
// o.Options on its own database, o.Work/user-NN.db (NN = i + 1), without a
// log: RunUsers and RunUnits read the same databases.
func prepareUser(o Options, i int, dir string) (*reproduce.Study, error) {
	uo := o.Options
	uo.DataDir, uo.DBPath, uo.Log = dir, filepath.Join(o.Work, fmt.Sprintf("user-%02d.db", i+1)), nil
	s, err := reproduce.Prepare(uo)
	if err != nil {
		return nil, fmt.Errorf("user %d (%s): %w", i+1, dir, err)
	}
	return s, nil
}
