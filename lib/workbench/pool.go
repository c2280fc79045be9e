package workbench

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/regularfile"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

// DefaultDepth is how many top chunks of each retriever join the pool.
const DefaultDepth = 10

// Origins of a pool row.
const (
	OriginEvidence  = "evidence"  // resolved from an evidence item; detail = item index
	OriginRetriever = "retriever" // in a retriever's top Depth; detail = retriever name
	OriginJudgment  = "judgment"  // judged without being pooled (an import); detail = annotator
)

// Question is a pooled question.
type Question struct {
	QID      string `json:"qid"`
	Question string `json:"question"`
	Type     string `json:"type"`
	Answer   string `json:"answer,omitempty"`
}

// Bench is the workbench over one database.
type Bench struct {
	st *store.Store
	db *sql.DB
	// Now stamps pooling, judgments and decisions; tests may replace it.
	Now func() time.Time
}

// Open returns the workbench of st (its tables come with the store's schema).
func Open(st *store.Store) *Bench { return &Bench{st: st, db: st.DB(), Now: time.Now} }

func (b *Bench) now() string { return b.Now().UTC().Format(time.RFC3339) }

// ReadQuestionsFile reads a questions file (spec §11) with the optional
// "answer" of spec §13.
func ReadQuestionsFile(path string) ([]Question, error) {
	f, err := regularfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadQuestions(path, f)
}

// ReadQuestions parses questions as questions.Read does and keeps a string
// "answer" where a line has one. name is used in errors.
func ReadQuestions(name string, r io.Reader) ([]Question, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	qs, err := questions.Read(name, strings.NewReader(string(data)))
	if err != nil {
		return nil, err
	}
	answers := map[string]string{}
	err = jsonl.Lines(name, strings.NewReader(string(data)), func(line int, b []byte) error {
		var row struct {
			QID    string          `json:"qid"`
			Answer json.RawMessage `json:"answer"`
		}
		if err := json.Unmarshal(b, &row); err != nil {
			return inputerr.At(name, line, "a JSON object: "+err.Error())
		}
		if len(row.Answer) == 0 || string(row.Answer) == "null" {
			return nil
		}
		var a string
		if err := json.Unmarshal(row.Answer, &a); err != nil {
			return inputerr.At(name, line, `"answer" to be a string`)
		}
		answers[row.QID] = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Question, len(qs))
	for i, q := range qs {
		out[i] = Question{QID: q.QID, Question: q.Question, Type: q.Type, Answer: answers[q.QID]}
	}
	return out, nil
}

// PoolOptions says what to pool.
type PoolOptions struct {
	Questions []Question
	// Evidence items by question; a qid that is not in Questions is an error.
	Evidence []gold.Evidence
	// EvidenceFile names the evidence input in errors.
	EvidenceFile string
	// Depth is how many top chunks each retriever adds; 0 = DefaultDepth.
	Depth int
	// Retrievers are built from these names (spec §9 grammar).
	Retrievers []string
	// Builder builds the retrievers; required when Retrievers is not empty.
	Builder *retrieval.Builder
}

// PoolReport accounts for a pooling run.
type PoolReport struct {
	Questions    int
	Rows         int            // distinct (qid, chunk_id) pairs pooled
	FromEvidence int            // pairs with an evidence origin
	ByRetriever  map[string]int // pairs each retriever added to the pool (whether or not evidence had them)
	OnlyRetrieve int            // pairs no evidence item pointed at
	Resolve      gold.Report
	// PerQuestion is what each question's pool holds, in questions order.
	PerQuestion []QuestionPool
	// NoRetrieverRows names the questions no retriever returned a chunk for
	// (empty when no retriever ran): their pool is their evidence only.
	NoRetrieverRows []string
}

// QuestionPool accounts for one question's pool.
type QuestionPool struct {
	QID         string
	Rows        int            // distinct chunks pooled
	ByRetriever map[string]int // chunks each retriever returned (its top Depth)
	ByEvidence  []int          // chunks each evidence item resolved to, by item index
}

// WriteText prints the report for a person.
func (r PoolReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "pooled %d questions, %d candidate rows: %d from evidence, %d only from retrievers\n",
		r.Questions, r.Rows, r.FromEvidence, r.OnlyRetrieve)
	names := make([]string, 0, len(r.ByRetriever))
	for n := range r.ByRetriever {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "retriever %s: %d rows\n", n, r.ByRetriever[n])
	}
	for _, q := range r.PerQuestion {
		fmt.Fprintf(&b, "question %s: %d rows", q.QID, q.Rows)
		for _, n := range names {
			fmt.Fprintf(&b, ", %s %d", n, q.ByRetriever[n])
		}
		if len(q.ByEvidence) > 0 {
			b.WriteString(", evidence items")
			for i, n := range q.ByEvidence {
				fmt.Fprintf(&b, " #%d: %d", i, n)
			}
		}
		b.WriteString("\n")
	}
	for _, qid := range r.NoRetrieverRows {
		fmt.Fprintf(&b, "warning: question %s got no retriever rows: its pool is its evidence only (try another --tokenizer or --retriever)\n", qid)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return r.Resolve.WriteText(w)
}

// MatchScore is min(1, |N(prefix)| / |N(text)|), N = gold.Normalize; 0 when
// the normalised text is empty.
func MatchScore(prefix, text string) float64 {
	n := utf8.RuneCountInString(gold.Normalize(text))
	if n == 0 {
		return 0
	}
	return min(1, float64(utf8.RuneCountInString(gold.Normalize(prefix)))/float64(n))
}

type poolRow struct {
	qid, chunkID, origin, detail string
	rank                         int
	score                        float64
}

// Pool resolves evidence, runs the retrievers and stores the pool of every
// question in opts.Questions in one transaction.
func (b *Bench) Pool(opts PoolOptions) (PoolReport, error) {
	rep := PoolReport{Questions: len(opts.Questions), ByRetriever: map[string]int{}}
	depth := opts.Depth
	if depth == 0 {
		depth = DefaultDepth
	}
	if depth < 0 {
		return rep, fmt.Errorf("pool depth must be ≥ 0, got %d", depth)
	}
	known := map[string]bool{}
	for _, q := range opts.Questions {
		known[q.QID] = true
	}
	for _, ev := range opts.Evidence {
		if !known[ev.QID] {
			return rep, fmt.Errorf("%s: question %q has evidence but is not in the questions file", opts.EvidenceFile, ev.QID)
		}
	}
	chunks, err := b.st.Chunks()
	if err != nil {
		return rep, err
	}
	if len(chunks) == 0 {
		return rep, fmt.Errorf("%s holds no chunks: run `linemem ingest` first", b.st.Path())
	}
	var msgs []chat.Message
	sources, err := b.st.Sources()
	if err != nil {
		return rep, err
	}
	for _, s := range sources {
		ms, err := b.st.Messages(s.Name)
		if err != nil {
			return rep, err
		}
		msgs = append(msgs, ms...)
	}
	text := make(map[string]string, len(msgs))
	for _, m := range msgs {
		text[m.ID] = m.Text
	}
	_, rr := gold.Resolve(opts.Evidence, msgs, chunks)
	rep.Resolve = rr

	var rows []poolRow
	for _, it := range rr.Items {
		score := 0.0
		if it.MessageID != "" {
			score = MatchScore(it.Item.TextPrefix, text[it.MessageID])
		}
		for _, cid := range it.ChunkIDs {
			rows = append(rows, poolRow{it.QID, cid, OriginEvidence, strconv.Itoa(it.Index), 0, score})
		}
	}
	if depth > 0 && len(opts.Retrievers) > 0 {
		if opts.Builder == nil {
			return rep, fmt.Errorf("workbench: PoolOptions.Builder is nil")
		}
		texts := make([]string, len(opts.Questions))
		for i, q := range opts.Questions {
			texts[i] = q.Question
		}
		for _, name := range opts.Retrievers {
			r, err := opts.Builder.Build(name)
			if err != nil {
				return rep, fmt.Errorf("retriever %s: %w", name, err)
			}
			hits, err := retrieval.SearchAll(r, texts, depth)
			if err != nil {
				return rep, fmt.Errorf("retriever %s: %w", name, err)
			}
			for i, q := range opts.Questions {
				for rank, h := range hits[i] {
					if rank >= depth {
						break
					}
					rows = append(rows, poolRow{q.QID, h.ChunkID, OriginRetriever, name, rank + 1, h.Score})
				}
			}
		}
	}
	pairs := map[[2]string]bool{}
	fromEv := map[[2]string]bool{}
	byRet := map[string]map[[2]string]bool{}
	for _, r := range rows {
		k := [2]string{r.qid, r.chunkID}
		pairs[k] = true
		if r.origin == OriginEvidence {
			fromEv[k] = true
		} else {
			if byRet[r.detail] == nil {
				byRet[r.detail] = map[[2]string]bool{}
			}
			byRet[r.detail][k] = true
		}
	}
	rep.Rows, rep.FromEvidence, rep.OnlyRetrieve = len(pairs), len(fromEv), len(pairs)-len(fromEv)
	for n, s := range byRet {
		rep.ByRetriever[n] = len(s)
	}
	rep.PerQuestion, rep.NoRetrieverRows = perQuestion(opts, rows, depth > 0 && len(opts.Retrievers) > 0)
	return rep, b.storePool(opts, rr, text, rows)
}

// perQuestion counts each question's pool rows by retriever and by
// evidence item; ran says whether retrievers were run.
func perQuestion(opts PoolOptions, rows []poolRow, ran bool) ([]QuestionPool, []string) {
	items := map[string]int{}
	for _, ev := range opts.Evidence {
		items[ev.QID] = len(ev.Items)
	}
	byQID := map[string]*QuestionPool{}
	out := make([]QuestionPool, len(opts.Questions))
	for i, q := range opts.Questions {
		out[i] = QuestionPool{QID: q.QID, ByRetriever: map[string]int{}, ByEvidence: make([]int, items[q.QID])}
		for _, name := range opts.Retrievers {
			if ran {
				out[i].ByRetriever[name] = 0
			}
		}
		byQID[q.QID] = &out[i]
	}
	chunks := map[[2]string]bool{}
	for _, r := range rows {
		q := byQID[r.qid]
		if !chunks[[2]string{r.qid, r.chunkID}] {
			chunks[[2]string{r.qid, r.chunkID}] = true
			q.Rows++
		}
		if r.origin == OriginRetriever {
			q.ByRetriever[r.detail]++
		} else if n, err := strconv.Atoi(r.detail); err == nil && n < len(q.ByEvidence) {
			q.ByEvidence[n]++
		}
	}
	var none []string
	if ran {
		for _, q := range out {
			total := 0
			for _, n := range q.ByRetriever {
				total += n
			}
			if total == 0 {
				none = append(none, q.QID)
			}
		}
	}
	return out, none
}

func (b *Bench) storePool(opts PoolOptions, rr gold.Report, text map[string]string, rows []poolRow) error {
	tx, err := b.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var next int
	if err := tx.QueryRow(`SELECT COALESCE(MAX(position), -1) + 1 FROM gold_questions`).Scan(&next); err != nil {
		return err
	}
	at := b.now()
	for _, q := range opts.Questions {
		res, err := tx.Exec(`UPDATE gold_questions SET question = ?, type = ?, answer = ?, pooled_at = ? WHERE qid = ?`, q.Question, q.Type, q.Answer, at, q.QID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			if _, err := tx.Exec(`INSERT INTO gold_questions (qid, position, question, type, answer, pooled_at) VALUES (?, ?, ?, ?, ?, ?)`,
				q.QID, next, q.Question, q.Type, q.Answer, at); err != nil {
				return err
			}
			next++
		}
		for _, table := range []string{"gold_pool", "gold_evidence"} {
			if _, err := tx.Exec(`DELETE FROM `+table+` WHERE qid = ?`, q.QID); err != nil {
				return err
			}
		}
	}
	for _, it := range rr.Items {
		score := 0.0
		if it.MessageID != "" {
			score = MatchScore(it.Item.TextPrefix, text[it.MessageID])
		}
		role := it.Item.Role
		if role == "" {
			role = gold.RoleAnswer
		}
		if _, err := tx.Exec(`INSERT INTO gold_evidence (qid, item_index, source, date, time, sender, text_prefix, role, match, message_id, match_score, candidates)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, it.QID, it.Index, it.Item.Source, it.Item.Date, it.Item.Time, it.Item.Sender,
			it.Item.TextPrefix, role, it.Match, it.MessageID, score, it.Candidates); err != nil {
			return err
		}
	}
	stmt, err := tx.Prepare(`INSERT OR REPLACE INTO gold_pool (qid, chunk_id, origin, detail, rank, score) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, r := range rows {
		if _, err := stmt.Exec(r.qid, r.chunkID, r.origin, r.detail, r.rank, r.score); err != nil {
			return err
		}
	}
	// Rows judged earlier that this pool no longer holds stay visible.
	if _, err := tx.Exec(`INSERT OR IGNORE INTO gold_pool (qid, chunk_id, origin, detail, rank, score)
		SELECT j.qid, j.chunk_id, ?, j.annotator, 0, 0 FROM gold_judgments j
		WHERE NOT EXISTS (SELECT 1 FROM gold_pool p WHERE p.qid = j.qid AND p.chunk_id = j.chunk_id)`, OriginJudgment); err != nil {
		return err
	}
	return tx.Commit()
}

// Questions lists the pooled questions in pooling order.
func (b *Bench) Questions() ([]Question, error) {
	rows, err := b.db.Query(`SELECT qid, question, type, answer FROM gold_questions ORDER BY position`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Question
	for rows.Next() {
		var q Question
		if err := rows.Scan(&q.QID, &q.Question, &q.Type, &q.Answer); err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// poolPairs lists the pooled chunk IDs of every question, sorted.
func (b *Bench) poolPairs() (map[string][]string, error) {
	rows, err := b.db.Query(`SELECT DISTINCT qid, chunk_id FROM gold_pool ORDER BY qid, chunk_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var q, c string
		if err := rows.Scan(&q, &c); err != nil {
			return nil, err
		}
		out[q] = append(out[q], c)
	}
	return out, rows.Err()
}
