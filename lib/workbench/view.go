package workbench

import (
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strconv"
)

// Origin is one way a row entered the pool.
type Origin struct {
	Kind   string  // OriginEvidence, OriginRetriever or OriginJudgment
	Detail string  // evidence item index, retriever name or annotator
	Rank   int     // retriever rank from 1; 0 otherwise
	Score  float64 // retriever score or evidence match score
	Match  string  // evidence rows: gold.MatchExact or gold.MatchExcerpt
}

// EvidenceItem is a stored evidence item with its resolution.
type EvidenceItem struct {
	Index      int
	Source     string
	Date, Time string
	Sender     string
	TextPrefix string
	Role       string
	Match      string // gold.MatchExact, gold.MatchExcerpt or gold.MatchUnmatched
	MessageID  string
	MatchScore float64
	Candidates int
}

// Row is one candidate chunk of a question as the judge sees it.
type Row struct {
	ChunkID  string
	Source   string
	StartAt  string
	EndAt    string
	Rel      *int   // the viewing annotator's label
	Note     string // the viewing annotator's note
	Origins  []Origin
	Evidence []string // IDs of matched evidence messages in this chunk (only when revealed)
}

// QuestionView is one question on the Judge page.
type QuestionView struct {
	Question
	Index    int // position among the pooled questions, from 0
	Total    int // pooled questions
	Prev     string
	Next     string
	Keep     *bool // the annotator's decision, nil when undecided
	Evidence []EvidenceItem
	Rows     []Row
	Judged   int // rows the annotator labelled
}

// ErrNoQuestion is returned by View for a qid that was never pooled.
var ErrNoQuestion = errors.New("no such pooled question")

// View returns question qid as annotator sees it. With reveal false the rows
// carry no origins and no evidence-message marks (blind judging); their order
// is by chunk start time, then chunk ID, either way.
func (b *Bench) View(annotator, qid string, reveal bool) (QuestionView, error) {
	qs, err := b.Questions()
	if err != nil {
		return QuestionView{}, err
	}
	v := QuestionView{Index: -1, Total: len(qs)}
	for i, q := range qs {
		if q.QID == qid {
			v.Question, v.Index = q, i
		}
	}
	if v.Index < 0 {
		return v, fmt.Errorf("%w: %q", ErrNoQuestion, qid)
	}
	if v.Index > 0 {
		v.Prev = qs[v.Index-1].QID
	}
	if v.Index+1 < len(qs) {
		v.Next = qs[v.Index+1].QID
	}
	var keep sql.NullBool
	err = b.db.QueryRow(`SELECT keep FROM gold_decisions WHERE annotator = ? AND qid = ?`, annotator, qid).Scan(&keep)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return v, err
	}
	if keep.Valid {
		v.Keep = &keep.Bool
	}
	if v.Evidence, err = b.evidence(qid); err != nil {
		return v, err
	}
	rows, err := b.db.Query(`SELECT p.chunk_id, c.source, c.start_at, c.end_at, p.origin, p.detail, p.rank, p.score
		FROM gold_pool p JOIN chunks c ON c.chunk_id = p.chunk_id WHERE p.qid = ?
		ORDER BY c.start_at, p.chunk_id, p.origin, p.detail`, qid)
	if err != nil {
		return v, err
	}
	defer rows.Close()
	byID := map[string]int{}
	for rows.Next() {
		var r Row
		var o Origin
		if err := rows.Scan(&r.ChunkID, &r.Source, &r.StartAt, &r.EndAt, &o.Kind, &o.Detail, &o.Rank, &o.Score); err != nil {
			return v, err
		}
		i, ok := byID[r.ChunkID]
		if !ok {
			i = len(v.Rows)
			byID[r.ChunkID] = i
			v.Rows = append(v.Rows, r)
		}
		if reveal {
			if o.Kind == OriginEvidence {
				if n, err := strconv.Atoi(o.Detail); err == nil && n < len(v.Evidence) && v.Evidence[n].Index == n {
					o.Match = v.Evidence[n].Match
				}
			}
			v.Rows[i].Origins = append(v.Rows[i].Origins, o)
		}
	}
	if err := rows.Err(); err != nil {
		return v, err
	}
	js, err := b.db.Query(`SELECT chunk_id, rel, note FROM gold_judgments WHERE annotator = ? AND qid = ?`, annotator, qid)
	if err != nil {
		return v, err
	}
	defer js.Close()
	for js.Next() {
		var cid, note string
		var rel sql.NullInt64
		if err := js.Scan(&cid, &rel, &note); err != nil {
			return v, err
		}
		i, ok := byID[cid]
		if !ok {
			continue
		}
		v.Rows[i].Note = note
		if rel.Valid {
			r := int(rel.Int64)
			v.Rows[i].Rel = &r
			v.Judged++
		}
	}
	if err := js.Err(); err != nil {
		return v, err
	}
	if reveal {
		if err := b.markEvidence(qid, v.Rows, byID); err != nil {
			return v, err
		}
	}
	return v, nil
}

func (b *Bench) evidence(qid string) ([]EvidenceItem, error) {
	rows, err := b.db.Query(`SELECT item_index, source, date, time, sender, text_prefix, role, match, message_id, match_score, candidates
		FROM gold_evidence WHERE qid = ? ORDER BY item_index`, qid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []EvidenceItem
	for rows.Next() {
		var e EvidenceItem
		if err := rows.Scan(&e.Index, &e.Source, &e.Date, &e.Time, &e.Sender, &e.TextPrefix, &e.Role, &e.Match, &e.MessageID, &e.MatchScore, &e.Candidates); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func (b *Bench) markEvidence(qid string, rows []Row, byID map[string]int) error {
	res, err := b.db.Query(`SELECT DISTINCT message_id FROM gold_evidence WHERE qid = ? AND message_id != ''`, qid)
	if err != nil {
		return err
	}
	var mids []string
	for res.Next() {
		var mid string
		if err := res.Scan(&mid); err != nil {
			res.Close()
			return err
		}
		mids = append(mids, mid)
	}
	if err := res.Close(); err != nil {
		return err
	}
	chunksOf, err := b.st.ChunkIDsOfMessages(mids)
	if err != nil {
		return err
	}
	for _, mid := range mids {
		for _, cid := range chunksOf[mid] {
			if i, ok := byID[cid]; ok {
				rows[i].Evidence = append(rows[i].Evidence, mid)
			}
		}
	}
	for i := range rows {
		sort.Strings(rows[i].Evidence)
	}
	return nil
}

// Progress is how far an annotator is.
type Progress struct {
	QID      string
	Question string
	Rows     int
	Judged   int
	Keep     *bool
}

// Progress lists every pooled question with its row count and annotator's
// labelled rows, in pooling order.
func (b *Bench) Progress(annotator string) ([]Progress, error) {
	rows, err := b.db.Query(`SELECT q.qid, q.question,
		(SELECT COUNT(DISTINCT chunk_id) FROM gold_pool p WHERE p.qid = q.qid),
		(SELECT COUNT(*) FROM gold_judgments j WHERE j.qid = q.qid AND j.annotator = ? AND j.rel IS NOT NULL
			AND EXISTS (SELECT 1 FROM gold_pool p WHERE p.qid = j.qid AND p.chunk_id = j.chunk_id)),
		(SELECT keep FROM gold_decisions d WHERE d.qid = q.qid AND d.annotator = ?)
		FROM gold_questions q ORDER BY q.position`, annotator, annotator)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Progress
	for rows.Next() {
		var p Progress
		var keep sql.NullBool
		if err := rows.Scan(&p.QID, &p.Question, &p.Rows, &p.Judged, &keep); err != nil {
			return nil, err
		}
		if keep.Valid {
			p.Keep = &keep.Bool
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
