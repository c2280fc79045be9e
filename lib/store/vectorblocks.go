package store

import (
	"database/sql"
	"fmt"
)

// Chunk vectors are stored in blocks (schema version 6). The vectors that
// one write stores for one (rep, model) lie end to end, blockVectors at a
// time, in one row of vector_blocks: slot i of a block of dimension d is the
// little-endian float32s at bytes [4·d·i, 4·d·(i+1)) of its vecs. Each
// chunk's row in vectors (keyed by chunk_id, rep, model, and removed with
// its chunk) names the block and slot that hold its vector.
//
// One 1,536-d vector (6,144 bytes) per row filled a 16 KiB page with two
// rows and left a quarter of it empty, and every row entered three B-trees;
// a block fills its overflow pages end to end, so an import writes about
// three quarters of the pages, each twice (WAL and checkpoint), and enters
// one small row per vector. A slot whose chunk row is replaced or removed
// keeps its bytes until no slot of its block is in use, when the block is
// deleted (dropUnusedBlocks); an import that replaces a whole set therefore
// leaves nothing behind.
const blockVectors = 64

// vectorWriter stores the chunk vectors of one (rep, model) inside a write
// transaction: add queues a vector in the current block and writes its chunk
// row (replacing any earlier row of the chunk in the set), and a full block
// is written at once. finish writes the last block and deletes the blocks
// left unused; after an error, abandon releases the statements and the
// transaction is rolled back.
type vectorWriter struct {
	tx         *sql.Tx
	rep, model string
	inputCap   int
	block      int64  // the number the queued vectors' block will have
	slots      int    // vectors queued in the current block
	vecs       []byte // their bytes, slot after slot
	blocks     *sql.Stmt
	keys       *batchInsert
}

func newVectorWriter(tx *sql.Tx, rep, model string, inputCap int) (*vectorWriter, error) {
	w := &vectorWriter{tx: tx, rep: rep, model: model, inputCap: inputCap}
	if err := tx.QueryRow(`SELECT coalesce(max(block), 0) + 1 FROM vector_blocks`).Scan(&w.block); err != nil {
		return nil, err
	}
	var err error
	if w.blocks, err = tx.Prepare(`INSERT INTO vector_blocks (block, rep, model, vecs) VALUES (?, ?, ?, ?)`); err != nil {
		return nil, err
	}
	w.keys, err = newRowInsert(tx, `INSERT INTO vectors (chunk_id, rep, model, dim, input_cap, block, slot) VALUES `,
		`ON CONFLICT (chunk_id, rep, model) DO UPDATE SET dim = excluded.dim, input_cap = excluded.input_cap, block = excluded.block, slot = excluded.slot`, 7)
	if err != nil {
		w.blocks.Close()
		return nil, err
	}
	return w, nil
}

// add stores vec as the vector of chunk id. The caller has checked that id
// is a chunk of the corpus and that every vector of the model has len(vec)
// elements.
func (w *vectorWriter) add(id string, vec []float32) error {
	if err := w.keys.add(id, w.rep, w.model, len(vec), w.inputCap, w.block, w.slots); err != nil {
		return err
	}
	if w.vecs == nil {
		w.vecs = make([]byte, 0, blockVectors*4*len(vec))
	}
	w.vecs = append(w.vecs, vectorBytes(vec)...)
	w.slots++
	if w.slots == blockVectors {
		return w.writeBlock()
	}
	return nil
}

// writeBlock writes the queued vectors as one block.
func (w *vectorWriter) writeBlock() error {
	if w.slots == 0 {
		return nil
	}
	if _, err := w.blocks.Exec(w.block, w.rep, w.model, w.vecs); err != nil {
		return err
	}
	w.block++
	w.slots = 0
	w.vecs = w.vecs[:0]
	return nil
}

// finish writes the last block, releases the statements and deletes the
// blocks that no chunk row uses any more.
func (w *vectorWriter) finish() error {
	defer w.abandon()
	if err := w.writeBlock(); err != nil {
		return err
	}
	return dropUnusedBlocks(w.tx)
}

// abandon releases the statements without writing the current block.
func (w *vectorWriter) abandon() {
	w.keys.abandon()
	w.blocks.Close()
}

// dropUnusedBlocks deletes the vector blocks that no row of vectors names:
// those whose every vector was replaced, or whose chunks were removed.
func dropUnusedBlocks(tx *sql.Tx) error {
	_, err := tx.Exec(`DELETE FROM vector_blocks WHERE block NOT IN (SELECT block FROM vectors)`)
	return err
}

// chunkVectors reads the vectors of (rep, model), ordered by chunk ID, into
// one slice allocated once at its final size: first the chunk rows (ID,
// dimension, block and slot), then each block of the set once, copying its
// slots into place. A dimension that differs between rows, a slot beyond
// its block's end and a block that is missing are errors.
func chunkVectors(q queryer, rep, model string) (ids []string, dim int, data []float32, err error) {
	rows, err := q.Query(`SELECT chunk_id, dim, block, slot FROM vectors WHERE rep = ? AND model = ? ORDER BY chunk_id`, rep, model)
	if err != nil {
		return nil, 0, nil, err
	}
	type place struct{ slot, row int }
	at := map[int64][]place{}
	for rows.Next() {
		var id string
		var d, slot int
		var block int64
		if err := rows.Scan(&id, &d, &block, &slot); err != nil {
			rows.Close()
			return nil, 0, nil, err
		}
		if len(ids) == 0 {
			dim = d
		}
		if d != dim || slot < 0 {
			rows.Close()
			return nil, 0, nil, fmt.Errorf("store: %s vector of %s (model %s): dimension %d at slot %d, set dimension %d", rep, id, model, d, slot, dim)
		}
		at[block] = append(at[block], place{slot: slot, row: len(ids)})
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(ids) == 0 {
		return nil, 0, nil, err
	}
	data = make([]float32, len(ids)*dim)
	blocks, err := q.Query(`SELECT block, vecs FROM vector_blocks WHERE rep = ? AND model = ?`, rep, model)
	if err != nil {
		return nil, 0, nil, err
	}
	defer blocks.Close()
	for blocks.Next() {
		var block int64
		var vecs sql.RawBytes // valid until the next row; copied into data at once
		if err := blocks.Scan(&block, &vecs); err != nil {
			return nil, 0, nil, err
		}
		places, used := at[block]
		if !used {
			continue
		}
		delete(at, block)
		for _, p := range places {
			end := 4 * dim * (p.slot + 1)
			if end > len(vecs) {
				return nil, 0, nil, fmt.Errorf("store: %s vector of %s (model %s): slot %d of block %d, which holds %d bytes", rep, ids[p.row], model, p.slot, block, len(vecs))
			}
			decodeVector(data[p.row*dim:(p.row+1)*dim], vecs[end-4*dim:end])
		}
	}
	if err := blocks.Err(); err != nil {
		return nil, 0, nil, err
	}
	for block, places := range at {
		return nil, 0, nil, fmt.Errorf("store: %s vector of %s (model %s): block %d is missing", rep, ids[places[0].row], model, block)
	}
	return ids, dim, data, nil
}
