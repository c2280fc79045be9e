// Package memory is the everyday search over one linemem database: what a
// person meets in `linemem search`, the web app (`serve`), `ask` and the MCP
// server. It wraps lib/retrieval with the everyday defaults, filters by
// source, sender and time, and returns each hit with its messages and the
// ones that match the question marked, so every caller shows the same thing.
//
// The paper's protocol (`eval`, `sweep`, `reproduce`) does not go through
// this package: its defaults are the paper's, fixed in lib/experiment.
//
// Under the everyday analyzer a question's question words (いつ, どこ, when,
// how much, なんだっけ, …) are not matched but read as what it asks for
// (ParseQuestion); a question for an amount or a time of day puts first the
// windows that hold one (TypeRerank, the answer-type prior); a result shows
// its matches, the replies to them and the lines near them that carry what
// is asked (Result.Shown); a search
// reports a confidence, 0 when nothing is found, and the question's words
// the history never contains (docs/everyday-search.md).
//
// A BM25 search that matches nothing falls back to the chunks that contain
// the question's tokens as written (a single kanji such as 鍋 is a char-bigram
// token of the question but never of a longer run in the text), and says so.
//
// Imports: lib/chat, lib/store, lib/retrieval, lib/represent, lib/tokenize, lib/trec, lib/provider
// (the registry, its cache and the local lsa model, to embed a free question)
// and the standard library; never cmd/ or lib/reproduce.
package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/trec"
)

// MaxK is the largest number of results one search returns.
const MaxK = 200

// MaxQuestionBytes is the longest question accepted, in bytes of UTF-8.
const MaxQuestionBytes = 4096

// Options chooses the retriever and what its name leaves open. The zero value
// takes the everyday defaults (DefaultRetriever, DefaultTokenizer).
type Options struct {
	Retriever  string // spec §9 grammar; "" = DefaultRetriever for what the database holds
	Tokenizer  string // BM25 tokenizer; "" = DefaultTokenizer
	EmbedModel string // model of the stored vectors; "" = the only one stored
	// QueryVectors embeds free questions for dense retrievers (chunk vectors
	// always come from the store); nil means the store's query vectors, then
	// the stored local (lsa) model, then, with AllowRemote, the remote model
	// of the stored vectors (see queryVectors).
	QueryVectors retrieval.VectorSource
	// AllowRemote lets a search send the question to the remote model that
	// embedded the stored chunk vectors when its server is not on a loopback
	// address (one that is, is local and needs no permission); the vector
	// is kept in query_vectors.
	AllowRemote bool
	// Remote configures that remote embedder (base URL, timeout, …); its
	// Model is the stored vectors' model.
	Remote provider.Options
	// PassageWeight is λ of Rerank for a BM25 retriever under the
	// everyday tokenizer: 0 means DefaultPassageWeight, a negative value
	// ranks by the window's BM25 score alone (λ = 0). Under another
	// tokenizer windows are ranked by BM25 alone.
	PassageWeight float64
	// TypeWeight is μ of TypeRerank, the answer-type prior, for a BM25
	// retriever under the everyday tokenizer: 0 means DefaultTypeWeight,
	// a negative value turns the prior off. Under another tokenizer
	// windows are ranked by BM25 alone.
	TypeWeight float64
	// BM25 are the BM25 parameters under the everyday tokenizer; the zero
	// value means DefaultBM25. Under another tokenizer (the paper's, as
	// `reproduce` opens a memory) BM25 keeps spec §9's.
	BM25 bm25.Params
}

// Memory searches one database. It is safe for concurrent use once opened.
//
// Opening reads no chunk: the retriever's index and vectors come from the
// store's derived files when they are current (retrieval.NewStoreBuilder),
// and a search reads only the chunks and messages of the results it returns.
type Memory struct {
	st        *store.Store
	qv        *queryVectors // nil when Options.QueryVectors replaces it
	model     string        // embedding model of a dense retriever
	spec      retrieval.Spec
	retriever retrieval.Retriever
	tokenizer tokenize.Tokenizer
	lambda    float64 // Rerank's λ; 0 under any tokenizer but the everyday one
	mu        float64 // TypeRerank's μ; 0 under any tokenizer but the everyday one
	// everyday: the tokenizer is the everyday analyzer, so question words
	// are kept out of the match (ParseQuestion); another tokenizer (the
	// paper's, as `reproduce` opens a memory) searches the question as
	// typed, by BM25 alone
	everyday bool

	sourcesOnce sync.Once
	sources     []SourceInfo
	sourcesErr  error

	titlesOnce sync.Once
	titles     map[string]string // source name → chat title
}

// Open builds the retriever opts names over the corpus of st.
func Open(st *store.Store, opts Options) (*Memory, error) {
	chunks, summaries, err := st.Counts()
	if err != nil {
		return nil, err
	}
	if chunks == 0 {
		return nil, fmt.Errorf("%s holds no chunks: run `linemem ingest` first", st.Path())
	}
	name := opts.Retriever
	if name == "" {
		name = defaultRetriever(chunks, summaries)
	}
	tokName := EverydayTokenizer(opts.Tokenizer)
	tok, err := tokenize.New(tokName)
	if err != nil {
		return nil, err
	}
	spec, err := retrieval.ParseName(name)
	if err != nil {
		return nil, err
	}
	m := &Memory{st: st, tokenizer: tok, model: opts.EmbedModel, spec: spec, lambda: DefaultPassageWeight, mu: DefaultTypeWeight}
	if opts.PassageWeight != 0 {
		m.lambda = max(opts.PassageWeight, 0)
	}
	if opts.TypeWeight != 0 {
		m.mu = max(opts.TypeWeight, 0)
	}
	if m.everyday = tokName == DefaultTokenizer; !m.everyday {
		m.lambda, m.mu = 0, 0
	}
	if spec.NeedsVectors() && m.model == "" {
		if m.model, err = SoleEmbedModel(st); err != nil {
			return nil, err
		}
	}
	var vs retrieval.VectorSource = opts.QueryVectors
	if vs == nil {
		m.qv = &queryVectors{st: st, allow: opts.AllowRemote, remote: opts.Remote}
		vs = m.qv
	}
	ropts := retrieval.Options{Tokenizer: tokName, EmbedModel: m.model}
	if m.everyday {
		ropts.BM25 = cmp.Or(opts.BM25, DefaultBM25())
	}
	b := retrieval.NewStoreBuilder(st, vs, ropts)
	if m.retriever, err = b.BuildSpec(spec); err != nil {
		return nil, err
	}
	return m, nil
}

// Retriever is the name of the retriever searches use.
func (m *Memory) Retriever() string { return m.retriever.Name() }

// TermIDF returns the IDF of a term in the BM25 index the memory ranks
// with, idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)) (lib/bm25); nil when the
// retriever is not a single BM25 index.
func (m *Memory) TermIDF() func(term string) float64 {
	lx, ok := m.retriever.(retrieval.Lexical)
	if !ok {
		return nil
	}
	return IndexIDF(lx.LexicalIndex())
}

// Tokenizer is the name of the tokenizer that marks matching terms.
func (m *Memory) Tokenizer() string { return m.tokenizer.Name() }

// EmbedModel is the model of the chunk vectors a dense or hybrid retriever
// searches; "" for BM25.
func (m *Memory) EmbedModel() string {
	if !m.spec.NeedsVectors() {
		return ""
	}
	return m.model
}

// Query is one search.
type Query struct {
	Text    string
	K       int       // 1 ≤ K ≤ MaxK
	Since   time.Time // zero: no lower bound; a chunk qualifies when it ends at or after Since
	Until   time.Time // zero: no upper bound; a chunk qualifies when it starts at or before Until
	Sources []string  // source names; empty: every source
	Sender  string    // "" : any sender; else a chunk qualifies when one of its messages is by a sender Sender names (NameMatches)
}

// filtered reports whether q keeps only some chunks.
func (q Query) filtered() bool {
	return !q.Since.IsZero() || !q.Until.IsZero() || len(q.Sources) > 0 || q.Sender != ""
}

// ErrBadQuery marks a query that cannot be run as given (empty text, K out
// of range, Since after Until); the message says which.
var ErrBadQuery = errors.New("bad query")

// Validate reports what is wrong with q, wrapping ErrBadQuery.
func (q Query) Validate() error {
	switch {
	case strings.TrimSpace(q.Text) == "":
		return fmt.Errorf("%w: the question is empty", ErrBadQuery)
	case len(q.Text) > MaxQuestionBytes:
		return fmt.Errorf("%w: the question is %d bytes; at most %d", ErrBadQuery, len(q.Text), MaxQuestionBytes)
	case !utf8.ValidString(q.Text):
		return fmt.Errorf("%w: the question is not valid UTF-8", ErrBadQuery)
	case q.K < 1 || q.K > MaxK:
		return fmt.Errorf("%w: k must be between 1 and %d, got %d", ErrBadQuery, MaxK, q.K)
	case !q.Since.IsZero() && !q.Until.IsZero() && q.Since.After(q.Until):
		return fmt.Errorf("%w: since %s is after until %s", ErrBadQuery, q.Since.Format(chat.TimestampLayout), q.Until.Format(chat.TimestampLayout))
	}
	return nil
}

// Span is a byte range [Start, End) of a message text that matches a query term.
type Span struct{ Start, End int }

// Message is one message of a result.
type Message struct {
	ID      string
	At      time.Time
	Sender  string
	Type    string
	Text    string
	Matches []Span // query-term matches in Text, ordered, non-overlapping
	// Later marks the chat's first message after the window (see
	// Result.Messages): where a thread goes on after the gap that ended
	// its window, the next morning's answer to last night's question.
	Later bool
}

// Result is one ranked chunk.
type Result struct {
	Rank    int // from 1
	ChunkID string
	Score   float64
	Source  string
	Title   string // the source's chat title (Memory.Title); "" when unknown
	StartAt time.Time
	EndAt   time.Time
	// Messages are the chunk's messages in window order, then, when a
	// message matches and the chat goes on, its first message after the
	// window (Message.Later, role "next"; never a match, reply or carrier).
	// InWindow counts the window's own.
	Messages []Message
	Matched  []int // indices into Messages with at least one match
	// Replies are indices into Messages of the replies to matched
	// messages: for each matched message, the first of the next
	// ReplyReach messages of the window by another sender.
	Replies []int
	// Carriers are indices into Messages of the messages within
	// ReplyReach of a matched one that carry what the question asks for
	// (Question.CarriedBy: a time for "when", an amount for "how much", …,
	// not counting one the question itself states).
	Carriers []int
	// Asks is what the question asks for (ParseQuestion).
	Asks Asks
	// TypeBonus is what the answer-type prior added to Score (TypeRerank):
	// μ times the best score of the first TypeDepth windows when a message
	// of this one carries what the question asks for; 0 otherwise.
	TypeBonus float64
	RawText   string // the chunk's raw_text (spec §5)
	// Why says, when no message is marked (Matched is empty), why the
	// window was ranked; "" otherwise.
	Why string
}

// Response is the answer to one Query.
type Response struct {
	Retriever  string
	Tokenizer  string
	EmbedModel string // "" for BM25
	Results    []Result
	// Confidence says how much of the question the top window holds; nil
	// when the retriever is not a single BM25 or the results come from the
	// literal fallback. A search without results has confidence 0, low.
	Confidence *Confidence
	Warnings   []string // something may be wrong with the ranking
	Notes      []string // what the search did beyond the database (a question sent to a remote model)
	// Notices is everything the search says beside its results, in the
	// order every front end shows it: not found or low confidence, then
	// the warnings, then the notes (notices.go). Warnings and Notes are
	// the messages of its warnings and notes.
	Notices []Notice
}

// Confidence is a result list's confidence (ConfidenceOf).
type Confidence struct {
	Value     float64
	Threshold float64 // DefaultMinConfidence
	// Low is Value < Threshold: the history may not hold the answer.
	Low bool
	// Missing are the question's words, as typed, that occur nowhere in
	// the history (no window holds one of their terms), in question order,
	// whether the confidence is low or not (a confident search still says
	// which words found nothing: CodeMissingWords).
	Missing []string
}

// confidence is the confidence of value v under DefaultMinConfidence: low
// when v is below it, strictly (a value equal to the threshold is not low).
func confidence(v float64) *Confidence {
	return &Confidence{Value: v, Threshold: DefaultMinConfidence, Low: v < DefaultMinConfidence}
}

// Shown is how a confidence value is written for a person: v cut (not
// rounded) to two decimals, so that it reads below a two-decimal threshold
// exactly when it is below it (0.2789 is 0.27, never 0.28 < 0.28); a
// percentage of it is 100 × Shown(v). The 10⁻⁹ keeps a value such as 0.3,
// stored as 0.29999…, at 0.30.
func Shown(v float64) float64 { return math.Floor(v*100+1e-9) / 100 }

// NotFoundNote is what every front end says when a search's confidence is
// low: the question's words the history never contains when there are
// some, else how much of the question the best conversation holds.
func NotFoundNote(c Confidence) string {
	if len(c.Missing) > 0 {
		return fmt.Sprintf("the history may not hold the answer: it never contains %s (confidence %.2f < %.2f)", quoteList(c.Missing), Shown(c.Value), c.Threshold)
	}
	return fmt.Sprintf("the history may not hold the answer: the best conversation holds %.0f%% of the question (confidence %.2f < %.2f)", 100*Shown(c.Value), Shown(c.Value), c.Threshold)
}

// Search runs q. Filters apply to the whole ranking before the cut at K, so
// a filtered search still returns up to K results.
func (m *Memory) Search(ctx context.Context, q Query) (Response, error) {
	if err := q.Validate(); err != nil {
		return Response{}, err
	}
	resp := Response{Retriever: m.retriever.Name(), Tokenizer: m.tokenizer.Name(), EmbedModel: m.EmbedModel()}
	if m.spec.NeedsVectors() && m.qv != nil {
		v, note, err := m.qv.resolve(ctx, m.model, q.Text)
		if err != nil {
			return resp, err
		}
		if note != "" {
			resp.note(CodeRemoteQuery, note)
		}
		if allZero(v) {
			resp.warn(CodeZeroQueryVector, fmt.Sprintf("the question shares no term with the vocabulary of %s, so its vector is zero and every vector score is 0: the vector ranking is arbitrary; try other words or a BM25 retriever", m.model))
		}
	}
	pq := ParseQuestion(q.Text)
	if !m.everyday {
		pq.Content = q.Text
	}
	lx, lexical := m.retriever.(retrieval.Lexical)
	typed := lexical && m.mu > 0 && pq.Typed()
	depth := 0
	if m.spec.Prefix() && !q.filtered() {
		depth = q.K
		if lexical && m.lambda > 0 {
			depth = max(depth, PassageDepth)
		}
		if typed {
			depth = max(depth, TypeDepth)
		}
	}
	// a vector retriever embeds the question as typed (its stored vector
	// is keyed by the text)
	text := q.Text
	if lexical {
		text = pq.Content
	}
	hits, err := m.retriever.Search(text, depth)
	if err != nil {
		return resp, err
	}
	if lexical && m.lambda > 0 {
		if hits, err = m.rerank(lx, pq.Content, hits); err != nil {
			return resp, err
		}
	}
	var bonus map[string]float64
	if typed {
		if hits, bonus, err = m.typeRerank(pq, hits); err != nil {
			return resp, err
		}
	}
	mk := NewMarker(m.tokenizer, pq.Content)
	spans := mk.Spans
	literal := false
	if len(hits) == 0 && !m.spec.NeedsVectors() {
		literal = true
		terms := m.literalTerms(mk)
		if hits, err = m.literal(terms); err != nil {
			return resp, err
		}
		spans = func(text string) []Span { return Matches(text, terms) }
		if len(hits) > 0 {
			resp.note(CodeLiteralFallback, fmt.Sprintf("no %s match; these conversations contain the question's words as written (a word of one character, or inside a longer word, is not a %s term)", m.retriever.Name(), m.tokenizer.Name()))
		}
	}
	sources := map[string]bool{}
	for _, s := range q.Sources {
		sources[s] = true
	}
	// The hits' chunks are read in batches, down the ranking until K pass
	// the filters: one batch of K when nothing is filtered.
	for next := 0; next < len(hits) && len(resp.Results) < q.K; {
		if err := ctx.Err(); err != nil {
			return resp, err
		}
		size := q.K - len(resp.Results)
		if q.filtered() {
			size = max(size, searchBatch)
		}
		batch := hits[next:min(next+size, len(hits))]
		next += len(batch)
		ids := make([]string, len(batch))
		for i, h := range batch {
			ids[i] = h.ChunkID
		}
		chunks, err := m.st.ChunksByID(ids)
		if err != nil {
			return resp, err
		}
		for _, h := range batch {
			c, ok := chunks[h.ChunkID]
			if !ok {
				continue
			}
			if len(sources) > 0 && !sources[c.Source] {
				continue
			}
			start, _ := time.Parse(chat.TimestampLayout, c.StartAt)
			end, _ := time.Parse(chat.TimestampLayout, c.EndAt)
			if !q.Since.IsZero() && end.Before(q.Since) || !q.Until.IsZero() && start.After(q.Until) {
				continue
			}
			res := Result{Rank: len(resp.Results) + 1, ChunkID: c.ID, Score: h.Score, Source: c.Source, Title: m.Title(c.Source), StartAt: start, EndAt: end, RawText: c.RawText, Asks: pq.Asks, TypeBonus: bonus[c.ID]}
			var last int
			if res.Messages, last, err = m.messages(c.Source, c.MessageIDs, spans); err != nil {
				return resp, err
			}
			if q.Sender != "" && !hasSender(res.Messages, q.Sender) {
				continue
			}
			for i, msg := range res.Messages {
				if q.Sender != "" && !NameMatches(msg.Sender, q.Sender) {
					res.Messages[i].Matches = nil
					continue
				}
				if len(msg.Matches) > 0 {
					res.Matched = append(res.Matched, i)
				}
			}
			res.Replies, res.Carriers = answerLines(res.Messages, res.Matched, pq)
			if len(res.Matched) > 0 {
				next, err := m.next(c.Source, last)
				if err != nil {
					return resp, err
				}
				res.Messages = append(res.Messages, next...)
			}
			if len(res.Matched) == 0 {
				res.Why = m.why()
			}
			resp.Results = append(resp.Results, res)
			if len(resp.Results) == q.K {
				break
			}
		}
	}
	switch {
	case len(resp.Results) == 0:
		resp.Confidence = confidence(0)
		if lexical {
			resp.Confidence.Missing = MissingWords(lx.LexicalIndex(), m.tokenizer, pq.Content)
		}
	case lexical && !literal:
		v := ConfidenceOf(lx.LexicalIndex(), m.tokenizer, pq.Content, resp.Results[0].ChunkID)
		resp.Confidence = confidence(v)
		resp.Confidence.Missing = MissingWords(lx.LexicalIndex(), m.tokenizer, pq.Content)
	}
	if len(resp.Results) == 0 && q.filtered() && len(hits) > 0 {
		resp.note(CodeFiltersMatchNone, filtersNote(len(hits)))
	}
	if len(resp.Results) > 0 {
		if n := m.summaryNote(); n != "" {
			resp.note(CodeRankedSummaries, n)
		}
	}
	if c := resp.Confidence; c != nil {
		if n, ok := confidenceNotice(*c, len(resp.Results)); ok {
			resp.Notices = append(resp.Notices, n)
		}
		if n, ok := missingNotice(*c); ok {
			resp.Notes = append(resp.Notes, n.Message)
			resp.Notices = append(resp.Notices, n)
		}
	}
	sortNotices(resp.Notices)
	return resp, nil
}

// rerank is Rerank of hits for the question's content under the lexical
// index, the first PassageDepth windows' texts read from the store.
func (m *Memory) rerank(lx retrieval.Lexical, content string, hits []trec.Hit) ([]trec.Hit, error) {
	texts, err := m.headTexts(hits, PassageDepth)
	if err != nil {
		return nil, err
	}
	terms := tokenize.QuestionTokens(m.tokenizer, content)
	idf := IndexIDF(lx.LexicalIndex())
	passage := make([]float64, len(texts))
	for i, text := range texts {
		passage[i] = PassageScore(m.tokenizer, idf, terms, text)
	}
	return Rerank(hits, passage, m.lambda), nil
}

// typeRerank is TypeRerank of hits with the everyday μ, whether each of the
// first TypeDepth windows carries what q asks for read from their raw_text
// in the store.
func (m *Memory) typeRerank(q Question, hits []trec.Hit) ([]trec.Hit, map[string]float64, error) {
	texts, err := m.headTexts(hits, TypeDepth)
	if err != nil {
		return nil, nil, err
	}
	carries := make([]bool, len(texts))
	for i, text := range texts {
		carries[i] = WindowCarries(q, text)
	}
	out, bonus := TypeRerank(hits, carries, m.mu)
	return out, bonus, nil
}

// headTexts reads the raw_text of the first depth hits' chunks from the
// store, in hit order.
func (m *Memory) headTexts(hits []trec.Hit, depth int) ([]string, error) {
	head := hits[:min(len(hits), depth)]
	ids := make([]string, len(head))
	for i, h := range head {
		ids[i] = h.ChunkID
	}
	chunks, err := m.st.ChunksByID(ids)
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(head))
	for i, h := range head {
		texts[i] = chunks[h.ChunkID].RawText
	}
	return texts, nil
}

// ReplyReach is how far after a matched message its reply is looked for,
// and how far on either side a message that carries what the question
// asks for is shown.
const ReplyReach = 3

// answerLines returns, for the messages msgs of a window with matched ones
// at indices matched, the replies to them and the messages near them that
// carry what q asks for beyond what it states (Question.CarriedBy; see
// Result.Replies and Result.Carriers), each ascending and without the
// matched ones.
func answerLines(msgs []Message, matched []int, q Question) (replies, carriers []int) {
	isMatched := map[int]bool{}
	for _, i := range matched {
		isMatched[i] = true
	}
	var senders []string
	for _, msg := range msgs {
		senders = append(senders, msg.Sender)
	}
	reply, carry := map[int]bool{}, map[int]bool{}
	for _, i := range matched {
		for j := i + 1; j <= min(len(msgs)-1, i+ReplyReach); j++ {
			if msgs[j].Sender != msgs[i].Sender {
				if !isMatched[j] {
					reply[j] = true
				}
				break
			}
		}
		for j := max(0, i-ReplyReach); j <= min(len(msgs)-1, i+ReplyReach); j++ {
			if !isMatched[j] && q.CarriedBy(msgs[j].Text, senders) {
				carry[j] = true
			}
		}
	}
	return sortedIndices(reply), sortedIndices(carry)
}

func sortedIndices(set map[int]bool) []int {
	var out []int
	for i := range set {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// why says why a window in which no message is marked was ranked.
func (m *Memory) why() string {
	switch {
	case m.spec.PlainVector():
		return "no message shares a term with the question: ranked by the similarity of its vector (" + m.model + ")"
	case m.spec.NeedsVectors():
		return "no message shares a term with the question: ranked by a fused ranking (" + m.retriever.Name() + ")"
	}
	return "no message text shares a marked term with the question: its " + m.tokenizer.Name() + " score comes from sender names or dates in its raw_text, or from kana pairs too common to mark"
}

// searchBatch is how many hits a filtered search reads at a time.
const searchBatch = 64

// literal ranks the chunks whose raw_text contains at least one of terms as
// written, by the number of bytes the matches cover, then by start_at and
// chunk_id descending (BM25's tie order). It is the fallback for a question
// whose tokens index nothing, such as one kanji that the corpus only has
// inside longer runs; it reads every chunk's text.
func (m *Memory) literal(terms []string) ([]trec.Hit, error) {
	chunks, err := m.st.ChunksWithoutMembers()
	if err != nil {
		return nil, err
	}
	var hits []trec.Hit
	startAt := map[string]string{}
	for _, c := range chunks {
		covered := 0
		for _, s := range Matches(c.RawText, terms) {
			covered += s.End - s.Start
		}
		if covered > 0 {
			hits = append(hits, trec.Hit{ChunkID: c.ID, Score: float64(covered)})
			startAt[c.ID] = c.StartAt
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if ca, cb := startAt[a.ChunkID], startAt[b.ChunkID]; ca != cb {
			return ca > cb
		}
		return a.ChunkID > b.ChunkID
	})
	return hits, nil
}

// hasSender reports whether a message of msgs is by a sender that sender
// names (NameMatches).
func hasSender(msgs []Message, sender string) bool {
	for _, msg := range msgs {
		if NameMatches(msg.Sender, sender) {
			return true
		}
	}
	return false
}

// Chunk returns the chunk called id with its messages, unranked (Rank 0).
func (m *Memory) Chunk(id string) (Result, error) {
	found, err := m.st.ChunksByID([]string{id})
	if err != nil {
		return Result{}, err
	}
	c, ok := found[id]
	if !ok {
		return Result{}, fmt.Errorf("no chunk %q in %s", id, m.st.Path())
	}
	start, _ := time.Parse(chat.TimestampLayout, c.StartAt)
	end, _ := time.Parse(chat.TimestampLayout, c.EndAt)
	msgs, _, err := m.messages(c.Source, c.MessageIDs, func(string) []Span { return nil })
	if err != nil {
		return Result{}, err
	}
	return Result{ChunkID: c.ID, Source: c.Source, Title: m.Title(c.Source), StartAt: start, EndAt: end, Messages: msgs, RawText: c.RawText}, nil
}

// Around returns the message called id with up to before messages before it
// and after messages after it in its source, in order.
func (m *Memory) Around(id string, before, after int) ([]Message, error) {
	if before < 0 || after < 0 {
		return nil, fmt.Errorf("%w: before and after must be ≥ 0", ErrBadQuery)
	}
	found, err := m.st.MessagesByID([]string{id})
	if err != nil {
		return nil, err
	}
	msg, ok := found[id]
	if !ok {
		return nil, fmt.Errorf("no message %q in %s", id, m.st.Path())
	}
	rows, err := m.st.MessageRange(msg.Source, msg.SourceOrder-before, msg.SourceOrder+after)
	if err != nil {
		return nil, err
	}
	out := make([]Message, len(rows))
	for i, r := range rows {
		out[i] = messageOf(r)
	}
	return out, nil
}

// SourceInfo describes one source of the memory.
type SourceInfo struct {
	Name     string
	Title    string // the chat's title from its .txt header; "" when unknown
	Messages int
	Chunks   int
	First    time.Time // start of its first chunk
	Last     time.Time // end of its last chunk
}

// Sources lists the sources by name. The list is read from the store on
// the first call (a search does not need it) and kept.
func (m *Memory) Sources() ([]SourceInfo, error) {
	m.sourcesOnce.Do(func() { m.sources, m.sourcesErr = loadSources(m.st) })
	return append([]SourceInfo(nil), m.sources...), m.sourcesErr
}

// Title is the one accessor for a source's chat title, read from its .txt
// export's header at ingest ("Tennis Club", "佐藤 花子"); "" when the
// source has none (a JSON export, a file ingested before titles were
// stored) or there is no such source.
//
// The titles are read on the first call (store.SourceTitles; Sources also
// reads every chunk's span) and kept; a store that cannot be read gives "".
func (m *Memory) Title(source string) string {
	m.titlesOnce.Do(func() {
		if m.titles, _ = m.st.SourceTitles(); m.titles == nil {
			m.titles = map[string]string{}
		}
	})
	return m.titles[source]
}

// Label is how a source is shown to a person: its title with the file name
// after it ("Tennis Club ([LINE] Tennis Club.txt)"), or the file name alone.
func (m *Memory) Label(source string) string {
	if t := m.Title(source); t != "" {
		return t + " (" + source + ")"
	}
	return source
}

func loadSources(st *store.Store) ([]SourceInfo, error) {
	infos, err := st.Sources()
	if err != nil {
		return nil, err
	}
	spans, err := st.ChunkSpans()
	if err != nil {
		return nil, err
	}
	byName := map[string]*SourceInfo{}
	out := make([]SourceInfo, len(infos))
	for i, s := range infos {
		out[i] = SourceInfo{Name: s.Name, Title: s.Title, Messages: s.Messages}
		byName[s.Name] = &out[i]
	}
	for _, c := range spans {
		si := byName[c.Source]
		if si == nil {
			continue
		}
		si.Chunks++
		start, _ := time.Parse(chat.TimestampLayout, c.StartAt)
		end, _ := time.Parse(chat.TimestampLayout, c.EndAt)
		if si.First.IsZero() || start.Before(si.First) {
			si.First = start
		}
		if end.After(si.Last) {
			si.Last = end
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// messages reads the messages called ids of source (a chunk's members are
// all of its source), in order, each marked by spans.
func (m *Memory) messages(source string, ids []string, spans func(text string) []Span) (msgs []Message, last int, err error) {
	found, err := m.st.MessagesOfSourceByID(source, ids)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Message, 0, len(ids))
	for _, id := range ids {
		r, ok := found[id]
		if !ok {
			return nil, 0, fmt.Errorf("store: chunk member %s has no message row", id)
		}
		msg := messageOf(r)
		msg.Matches = spans(r.Text)
		out = append(out, msg)
		last = max(last, r.SourceOrder)
	}
	return out, last, nil
}

// next returns the message of source after the one at source_order last,
// marked Later, unmarked; none at the chat's end.
func (m *Memory) next(source string, last int) ([]Message, error) {
	rows, err := m.st.MessageRange(source, last+1, last+1)
	if err != nil {
		return nil, err
	}
	out := make([]Message, len(rows))
	for i, r := range rows {
		out[i] = messageOf(r)
		out[i].Later = true
	}
	return out, nil
}

// messageOf is the stored message r as a search shows it, unmarked.
func messageOf(r chat.Message) Message {
	return Message{ID: r.ID, At: r.OccurredAt, Sender: r.Sender, Type: r.Type, Text: r.Text}
}

// literalTerms are the question's terms the literal fallback looks for as
// written: all of them, but for a tokenizer that locates its terms only
// those without a Latin letter (a stem such as "tenni" is no word as
// written, and a Latin fragment is never marked).
func (m *Memory) literalTerms(mk Marker) []string {
	if mk.loc == nil {
		return mk.Terms()
	}
	var out []string
	for _, t := range mk.Terms() {
		if !strings.ContainsFunc(t, func(r rune) bool { return 'a' <= r && r <= 'z' }) {
			out = append(out, t)
		}
	}
	return out
}

// Matches returns the spans of text covered by occurrences of terms,
// case-insensitively for ASCII letters: every occurrence of every term is
// found, and overlapping or touching occurrences merge into one span (the
// overlapping 2-grams 保険 and 険証 mark 保険証 as a whole). Spans are
// ordered and do not overlap.
func Matches(text string, terms []string) []Span {
	if len(terms) == 0 {
		return nil
	}
	lower := asciiLower(text)
	covered := make([]bool, len(lower))
	for _, t := range terms {
		t = asciiLower(t)
		if t == "" {
			continue
		}
		for from := 0; from < len(lower); {
			i := strings.Index(lower[from:], t)
			if i < 0 {
				break
			}
			for j := from + i; j < from+i+len(t); j++ {
				covered[j] = true
			}
			_, size := utf8.DecodeRuneInString(lower[from+i:])
			from += i + size
		}
	}
	var out []Span
	for i := 0; i < len(covered); {
		if !covered[i] {
			i++
			continue
		}
		j := i
		for j < len(covered) && covered[j] {
			j++
		}
		out = append(out, Span{i, j})
		i = j
	}
	return out
}

// asciiLower lowercases ASCII letters only, so byte offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
