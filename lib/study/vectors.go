package study

import (
	"context"
	"fmt"
	"os"

	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/store"
)

// VectorReps are the representations the paper searches by vector.
var VectorReps = []string{represent.Summary, represent.EmbeddingTextRep}

// provideVectors makes chunk vectors of VectorReps and query vectors of every
// question available under one model: the vectors shipped with the data
// (vectors_summary.jsonl, vectors_embedding_text.jsonl, query_vectors.jsonl),
// vectors already stored under Options.EmbedModel, or else the local LSA
// embedder fitted on the corpus (lib/provider/lsa), stored for reruns.
func provideVectors(s *Study) error {
	shipped := s.Folder.Has(datafolder.SummaryVectorsFile) && s.Folder.Has(datafolder.EmbeddingVectorFile) && s.Folder.Has(datafolder.QueryVectorsFile)
	switch {
	case shipped && (s.Opts.EmbedModel == "" || s.Opts.EmbedModel == ImportedModel):
		s.EmbedModel = ImportedModel
		return importShipped(s)
	case s.Opts.EmbedModel != "" && s.Opts.EmbedModel != lsaModelName(s):
		s.EmbedModel = s.Opts.EmbedModel
		if complete, err := vectorsComplete(s); err != nil {
			return err
		} else if !complete {
			return fmt.Errorf("the database has no complete vectors of model %s for %v and every question: run `linemem embed` first, or leave --embed-model empty for the local embedder", s.EmbedModel, VectorReps)
		}
		return nil
	}
	s.EmbedModel = lsaModelName(s)
	complete, err := vectorsComplete(s)
	if err != nil || complete {
		return err
	}
	return embedLocally(s)
}

// lsaModelName is the name of the local model fitted on this corpus, its
// dimension chosen from the data (lsa.Resolve; the defaults at paper scale).
func lsaModelName(s *Study) string {
	texts, _, err := lsa.FitTexts(s.Chunks, s.Summaries, represent.EmbeddingTextRep, s.Protocol.EmbeddingCap)
	if err != nil {
		return lsa.ModelName(lsa.Options{})
	}
	o, err := lsa.Resolve(texts, lsa.Options{})
	if err != nil {
		return lsa.ModelName(lsa.Options{})
	}
	return lsa.ModelName(o)
}

func importShipped(s *Study) error {
	for _, f := range []struct{ rep, file string }{{represent.Summary, datafolder.SummaryVectorsFile}, {represent.EmbeddingTextRep, datafolder.EmbeddingVectorFile}, {"", datafolder.QueryVectorsFile}} {
		path := s.Folder.Path(f.file)
		r, err := os.Open(path)
		if err != nil {
			return err
		}
		if f.rep == "" {
			_, err = s.Store.ImportQueryVectors(s.EmbedModel, path, r)
		} else {
			_, err = s.Store.ImportVectors(f.rep, s.EmbedModel, 0, path, r)
		}
		r.Close()
		if err != nil {
			return err
		}
		if err := record(s, path); err != nil {
			return err
		}
	}
	return nil
}

// vectorsComplete reports whether every chunk has a vector of each of
// VectorReps under EmbedModel and every question a query vector.
func vectorsComplete(s *Study) (bool, error) {
	stats, err := s.Store.Stats()
	if err != nil {
		return false, err
	}
	have := map[string]int{}
	for _, set := range stats.VectorSets {
		if set.Model == s.EmbedModel {
			have[set.Rep] = set.Count
		}
	}
	for _, rep := range VectorReps {
		if have[rep] != len(s.Chunks) {
			return false, nil
		}
	}
	for _, q := range s.Questions {
		if _, found, err := s.Store.QueryVector(s.EmbedModel, q.Question); err != nil || !found {
			return false, err
		}
	}
	return true, nil
}

// embedLocally fits the LSA embedder on the capped embedding_text of every
// chunk and stores vectors of both representations and of every question.
// Inputs are shortened with the spec §7 cap (Protocol.EmbeddingCap),
// which is recorded with the vectors.
func embedLocally(s *Study) error {
	texts := map[string][]string{}
	for _, rep := range VectorReps {
		raw, err := represent.Texts(rep, s.Chunks, s.Summaries)
		if err != nil {
			return err
		}
		capped := make([]string, len(raw))
		for i, t := range raw {
			capped[i], _ = represent.CapInput(t, s.Protocol.EmbeddingCap)
		}
		texts[rep] = capped
	}
	ctx := context.Background()
	states, err := cache.Open(s.Store.DB())
	if err != nil {
		return err
	}
	model, err := lsa.Prepare(ctx, states, texts[represent.EmbeddingTextRep], lsa.Options{})
	if err != nil {
		return err
	}
	if model.Fresh {
		fmt.Fprintf(s.Opts.Log, "  fitting %s on %d chunks …\n", s.EmbedModel, len(s.Chunks))
	}
	if err := model.Save(ctx, states); err != nil {
		return err
	}
	for _, rep := range VectorReps {
		res, err := model.Embed(ctx, texts[rep])
		if err != nil {
			return err
		}
		rows := make([]store.VectorRow, len(s.Chunks))
		for i, c := range s.Chunks {
			rows[i] = store.VectorRow{Key: c.ID, Vector: res.Vectors[i]}
		}
		if err := s.Store.PutChunkVectors(rep, s.EmbedModel, s.Protocol.EmbeddingCap, rows); err != nil {
			return err
		}
	}
	queries := make([]string, 0, len(s.Questions))
	seen := map[string]bool{}
	for _, q := range s.Questions {
		if !seen[q.Question] {
			seen[q.Question] = true
			queries = append(queries, q.Question)
		}
	}
	res, err := model.Embed(ctx, queries)
	if err != nil {
		return err
	}
	rows := make([]store.VectorRow, len(queries))
	for i, q := range queries {
		rows[i] = store.VectorRow{Key: q, Vector: res.Vectors[i]}
	}
	return s.Store.PutQueryVectors(s.EmbedModel, rows)
}
