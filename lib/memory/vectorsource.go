package memory

import (
	"context"

	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

// LocalQueryVectors returns a retrieval.VectorSource over st for retrievers
// built outside a Memory (the gold pool): chunk vectors from st, and query
// vectors from st or, for a question with none, folded into the stored
// local (lsa) model of the chunk vectors. It never calls a remote model: for
// vectors of one, a question without a stored vector is an error naming
// --allow-remote. It is safe for concurrent use.
func LocalQueryVectors(st *store.Store) retrieval.VectorSource {
	return localSource{&queryVectors{st: st}}
}

type localSource struct{ *queryVectors }

func (l localSource) QueryVector(model, question string) ([]float32, bool, error) {
	v, _, err := l.resolve(context.Background(), model, question)
	if err != nil {
		return nil, false, err
	}
	return v, true, nil
}
