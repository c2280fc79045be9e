package store

// ChunkIDs returns every chunk ID in byte order, without loading the chunks.
func (s *Store) ChunkIDs() ([]string, error) {
	rows, err := s.db.Query(`SELECT chunk_id FROM chunks ORDER BY chunk_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
