package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/store"
)

// RemoteProvider is the embedder registry name used for stored vectors of a
// model that is not a local lsa model.
const RemoteProvider = "openai"

// ErrRemoteQuery marks a search that would have to send the question to a
// remote embedding model, and was not allowed to.
var ErrRemoteQuery = errors.New("remote query embedding not allowed")

// queryVectors supplies the query vector of a question under the model of
// the stored chunk vectors, in this order: a vector stored in query_vectors;
// for a local lsa model, the question folded into the stored fitted model
// (kept in memory, never written); for any other model, with AllowRemote,
// the question embedded by that model through RemoteProvider and stored in
// query_vectors, so it is sent once. It is safe for concurrent use.
type queryVectors struct {
	st     *store.Store
	allow  bool
	remote provider.Options

	mu     sync.Mutex
	local  *lsa.Model
	memo   map[string][]float32 // question → vector (local model)
	remEmb provider.Embedder
}

// resolve returns the vector of question under model and a note saying how
// it was made when it was not stored already.
func (q *queryVectors) resolve(ctx context.Context, model, question string) (vec []float32, note string, err error) {
	if v, found, err := q.st.QueryVector(model, question); err != nil || found {
		return v, "", err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if v, ok := q.memo[question]; ok {
		return v, "", nil
	}
	if lsa.IsModelName(model) {
		if q.local == nil {
			c, err := cache.Open(q.st.DB())
			if err != nil {
				return nil, "", err
			}
			m, found, err := lsa.Load(ctx, c, model)
			if err != nil {
				return nil, "", err
			}
			if !found {
				return nil, "", fmt.Errorf("no query vector for %q under model %s, and the local model is not stored; run `linemem embed --provider lsa --rep REP` again, or search with a BM25 retriever", question, model)
			}
			q.local = m
		}
		v := q.local.Vector(question)
		if q.memo == nil {
			q.memo = map[string][]float32{}
		}
		q.memo[question] = v
		return v, "", nil
	}
	if q.remEmb == nil {
		opts := q.remote
		opts.Model = model
		if strings.HasPrefix(model, "text-embedding-3-") {
			// These models shorten their output on request; ask for the
			// stored vectors' dimension, which embed may have set.
			if opts.Dimensions, err = storedDim(q.st, model); err != nil {
				return nil, "", err
			}
		}
		e, err := provider.NewEmbedder(RemoteProvider, opts)
		if err != nil {
			return nil, "", fmt.Errorf("chunk vectors of model %s need the question embedded by that model: %w", model, err)
		}
		q.remEmb = e
	}
	where := remoteEndpoint(q.remEmb)
	if !q.allow && q.remEmb.Remote() {
		return nil, "", fmt.Errorf("%w: the chunk vectors are of model %s, so the question would have to be sent to %s to be embedded. Nothing was sent. Add --allow-remote to send the question (its vector is then kept in the database and sent only once), or search with a BM25 retriever", ErrRemoteQuery, model, where)
	}
	res, err := q.remEmb.Embed(ctx, []string{question})
	if err != nil {
		return nil, "", fmt.Errorf("embedding the question with %s at %s: %w", model, where, err)
	}
	if len(res.Vectors) != 1 {
		return nil, "", fmt.Errorf("embedding the question with %s at %s: %d vectors returned, want 1", model, where, len(res.Vectors))
	}
	v := res.Vectors[0]
	if err := q.st.PutQueryVectors(model, []store.VectorRow{{Key: question, Vector: v}}); err != nil {
		return nil, "", err
	}
	if !q.remEmb.Remote() {
		return v, fmt.Sprintf("the question was embedded with %s by the local server at %s; its vector is kept in the database's query_vectors", model, where), nil
	}
	return v, fmt.Sprintf("the question was sent to %s and embedded with %s; its vector is kept in the database's query_vectors", where, model), nil
}

// remoteEndpoint names where an embedder sends text.
func remoteEndpoint(e provider.Embedder) string {
	if ep, ok := e.(provider.Endpointer); ok {
		return ep.Endpoint()
	}
	return "a remote service"
}

// ChunkVectors implements retrieval.VectorSource from the store.
func (q *queryVectors) ChunkVectors(rep, model string) ([]string, int, []float32, error) {
	return q.st.ChunkVectors(rep, model)
}

// QueryVector implements retrieval.VectorSource: stored vectors and those
// resolve made for this process. Search resolves the question first, so a
// retriever finds it here.
func (q *queryVectors) QueryVector(model, question string) ([]float32, bool, error) {
	if v, found, err := q.st.QueryVector(model, question); err != nil || found {
		return v, found, err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	v, ok := q.memo[question]
	return v, ok, nil
}

// SoleEmbedModel returns the one model chunk vectors are stored for; an
// error when there is none, or several (then a model must be named).
func SoleEmbedModel(st *store.Store) (string, error) {
	models, err := st.ChunkVectorModels()
	if err != nil {
		return "", err
	}
	switch len(models) {
	case 0:
		return "", fmt.Errorf("%s holds no chunk vectors: run `linemem embed --provider lsa --rep raw_text` (offline) or `linemem vectors import` first", st.Path())
	case 1:
		return models[0], nil
	}
	return "", fmt.Errorf("%s holds vectors of several models (%s): pass --embed-model", st.Path(), strings.Join(models, ", "))
}

// storedDim is the dimension of the chunk vectors of model.
func storedDim(st *store.Store, model string) (int, error) {
	stats, err := st.Stats()
	if err != nil {
		return 0, err
	}
	for _, set := range stats.VectorSets {
		if set.Model == model {
			return set.Dim, nil
		}
	}
	return 0, fmt.Errorf("%s holds no chunk vectors of model %s", st.Path(), model)
}

// allZero reports whether v has no non-zero element.
func allZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}
