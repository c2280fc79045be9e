package memory

// DerivedDir names the store's folder of derived indexes, so that a
// retrieval Builder over these vectors keeps its BM25 indexes there between
// processes (retrieval.IndexDirer).
func (q *queryVectors) DerivedDir() string { return q.st.DerivedDir() }

// ContentKey forwards the store's content key, so that a retrieval Builder
// over these vectors keeps their matrices between processes
// (retrieval.ContentKeyer).
func (q *queryVectors) ContentKey(kinds ...string) (string, error) { return q.st.ContentKey(kinds...) }
