package store

// SummaryCounts returns, by source name, how many of its chunks have a
// stored summary; a source with none is absent.
func (s *Store) SummaryCounts() (map[string]int, error) {
	rows, err := s.db.Query(`SELECT c.source, count(*) FROM summaries s JOIN chunks c ON c.chunk_id = s.chunk_id GROUP BY c.source`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var name string
		var n int
		if err := rows.Scan(&name, &n); err != nil {
			return nil, err
		}
		out[name] = n
	}
	return out, rows.Err()
}
