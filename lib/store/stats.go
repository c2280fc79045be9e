package store

import (
	"math"
	"slices"
)

// Stats summarises a database (the paper's Table 1 and §3.3 figures).
type Stats struct {
	Sources           int
	Messages          int
	Chunks            int
	UncoveredMessages int // messages in no chunk (render-limit trimming, spec §4 step 4)
	Summaries         int
	Incomplete        int         // summaries whose response was incomplete, kept apart (not in Summaries)
	RawTextLength     LengthStats // over all chunks
	SummaryLength     LengthStats // over stored summaries; zero when there are none
	VectorSets        []VectorSet // chunk vector sets ordered by rep, model
	QueryVectorSets   []VectorSet // query vector sets (Rep empty) ordered by model
}

// LengthStats describes text lengths in code points.
type LengthStats struct {
	Mean float64 // arithmetic mean; 0 for no texts
	P95  float64 // 95th percentile, linear interpolation between order statistics (Hyndman–Fan type 7)
	Max  int
}

// VectorSet is one stored set of vectors.
type VectorSet struct {
	Rep   string // "" for query vectors
	Model string
	Dim   int
	Count int
}

// Stats counts what the database holds.
func (s *Store) Stats() (Stats, error) {
	var st Stats
	for _, c := range []struct {
		dst   *int
		query string
	}{
		{&st.Sources, `SELECT count(*) FROM sources`},
		{&st.Messages, `SELECT coalesce(sum(count), 0) FROM message_blocks`},
		{&st.Chunks, `SELECT count(*) FROM chunks`},
		{&st.UncoveredMessages, `SELECT coalesce(sum(uncovered), 0) FROM sources`},
		{&st.Summaries, `SELECT count(*) FROM summaries`},
		{&st.Incomplete, `SELECT count(*) FROM incomplete_summaries`},
	} {
		if err := s.db.QueryRow(c.query).Scan(c.dst); err != nil {
			return st, err
		}
	}
	var err error
	// SQLite's length() of TEXT counts characters, i.e. code points.
	if st.RawTextLength, err = s.lengthStats(`SELECT length(raw_text) FROM chunks`); err != nil {
		return st, err
	}
	if st.SummaryLength, err = s.lengthStats(`SELECT length(summary) FROM summaries`); err != nil {
		return st, err
	}
	if st.VectorSets, err = s.vectorSets(`SELECT rep, model, min(dim), count(*) FROM vectors GROUP BY rep, model ORDER BY rep, model`); err != nil {
		return st, err
	}
	if st.QueryVectorSets, err = s.vectorSets(`SELECT '', model, min(dim), count(*) FROM query_vectors GROUP BY model ORDER BY model`); err != nil {
		return st, err
	}
	return st, nil
}

// UncoveredMessages counts the messages of source that are in no chunk.
func (s *Store) UncoveredMessages(source string) (int, error) {
	var n int
	err := s.db.QueryRow(`SELECT coalesce(sum(uncovered), 0) FROM sources WHERE name = ?`, source).Scan(&n)
	return n, err
}

func (s *Store) lengthStats(query string) (LengthStats, error) {
	rows, err := s.db.Query(query)
	if err != nil {
		return LengthStats{}, err
	}
	defer rows.Close()
	var lengths []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			return LengthStats{}, err
		}
		lengths = append(lengths, n)
	}
	if err := rows.Err(); err != nil {
		return LengthStats{}, err
	}
	return DescribeLengths(lengths), nil
}

// DescribeLengths computes LengthStats of lengths; no lengths give the zero value.
// The p-quantile (type 7) of sorted x₀…x_{n−1} is x_⌊h⌋ + (h − ⌊h⌋)(x_⌊h⌋+1 − x_⌊h⌋)
// with h = (n − 1)p.
func DescribeLengths(lengths []int) LengthStats {
	if len(lengths) == 0 {
		return LengthStats{}
	}
	x := slices.Clone(lengths)
	slices.Sort(x)
	sum := 0
	for _, v := range x {
		sum += v
	}
	h := float64(len(x)-1) * 0.95
	lo := int(math.Floor(h))
	p95 := float64(x[lo])
	if lo+1 < len(x) {
		p95 += (h - float64(lo)) * float64(x[lo+1]-x[lo])
	}
	return LengthStats{Mean: float64(sum) / float64(len(x)), P95: p95, Max: x[len(x)-1]}
}

func (s *Store) vectorSets(query string) ([]VectorSet, error) {
	rows, err := s.db.Query(query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []VectorSet
	for rows.Next() {
		var v VectorSet
		if err := rows.Scan(&v.Rep, &v.Model, &v.Dim, &v.Count); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
