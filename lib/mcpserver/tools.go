package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/memory"
)

// Tool names.
const (
	ToolSearch   = "search_memory"
	ToolMessages = "get_messages"
	ToolSources  = "list_sources"
	ToolStats    = "memory_stats"
)

// SearchInput is search_memory's arguments as read from a call.
type SearchInput struct {
	Question  string `json:"question"`
	K         *int   `json:"k,omitempty"` // nil: DefaultK
	Retriever string `json:"retriever,omitempty"`
	Since     string `json:"since,omitempty"`
	Until     string `json:"until,omitempty"`
	Source    string `json:"source,omitempty"`
	Sender    string `json:"sender,omitempty"`
}

// timeForms is how since and until may be written, for their descriptions.
const timeForms = "YYYY-MM-DD (or YYYY/MM/DD), YYYY-MM-DDTHH:MM[:SS] in the chat's local time, or RFC 3339 with Z or an offset (converted to the server's time zone, then compared with the chat's local times)"

// searchParams are search_memory's arguments.
var searchParams = []param{
	{name: "question", required: true, desc: "what to look for, in the words the chats would use (Japanese or English); a short phrase works best, e.g. 文化祭 ポスター 締切"},
	{name: "k", integer: true, min: 1, max: memory.MaxK, def: DefaultK, desc: "number of conversation windows to return"},
	{name: "retriever", desc: "retrieval method; omit for the default (see memory_stats). Examples: raw_text_bm25, embedding_text_bm25, hybrid:embedding_text_bm25+embedding_text_vector@0.45"},
	{name: "since", desc: "only windows that end on or after this date or time: " + timeForms},
	{name: "until", desc: "only windows that start on or before this date or time (a date alone means the end of that day): " + timeForms},
	{name: "source", desc: "only these chats: a title or file name as list_sources gives them, or a comma list of them (the start or a whole word of either also works)"},
	{name: "sender", desc: "only windows where this person wrote at least one message (the display name as it appears in results; 自分 or Me is the user)"},
}

func readSearch(a args) SearchInput {
	in := SearchInput{Question: a.str("question"), Retriever: a.str("retriever"), Since: a.str("since"), Until: a.str("until"), Source: a.str("source"), Sender: a.str("sender")}
	if a.has("k") {
		k := a.int("k", DefaultK)
		in.K = &k
	}
	return in
}

// Message is one message as the tools return it.
type Message struct {
	ID      string `json:"id" jsonschema:"message ID; pass it to get_messages as message_id to read around it"`
	At      string `json:"at" jsonschema:"when it was sent, YYYY-MM-DDTHH:MM:SS in the chat's local time"`
	Sender  string `json:"sender"`
	Type    string `json:"type" jsonschema:"text, sticker, photo, call, unsend, … as the export marks it"`
	Text    string `json:"text"`
	Matched bool   `json:"matched,omitempty" jsonschema:"true when the message contains a word of the question"`
	Role    string `json:"role,omitempty" jsonschema:"why a search result shows it: match (holds a word of the question), reply (answers a matching message), asked (carries what the question asks for: a time, an amount, a place, a person), next (the chat's first message after the window) or context"`
	Later   bool   `json:"after_window,omitempty" jsonschema:"true for the chat's first message after the window (role next): the thread may go on there, or a new topic begin; compare its time with the window's end"`
}

// Hit is one ranked conversation window.
type Hit struct {
	Rank     int       `json:"rank" jsonschema:"1 is the best match"`
	ChunkID  string    `json:"chunk_id" jsonschema:"ID of the conversation window; pass it to get_messages to read all of it"`
	Score    float64   `json:"score" jsonschema:"retrieval score; only the order is meaningful"`
	Chat     string    `json:"chat" jsonschema:"the chat it comes from: its title from the export's header, or its file name when it has none"`
	Source   string    `json:"source" jsonschema:"file name of the chat's export"`
	Start    string    `json:"start" jsonschema:"time of the window's first message"`
	End      string    `json:"end" jsonschema:"time of the window's last message"`
	Total    int       `json:"message_count" jsonschema:"messages in the whole window"`
	Messages []Message `json:"messages" jsonschema:"the matching messages, the replies to them and the lines near them carrying what the question asks for, with two messages of context on each side, and the chat's first message after the window, in order (at most 8); none when no message matches (see why)"`
	Why      string    `json:"why,omitempty" jsonschema:"when no message matches the question: why the window was ranked (its vector, a fused ranking, or terms outside the message texts)"`
}

// SearchOutput is search_memory's result.
type SearchOutput struct {
	Retriever  string      `json:"retriever"`
	Tokenizer  string      `json:"tokenizer"`
	Confidence *Confidence `json:"confidence,omitempty"`
	Results    []Hit       `json:"results"`
	Warnings   []string    `json:"warnings,omitempty"`
	Notices    []Notice    `json:"notices" jsonschema:"what the search says beside its results, in order: not found or low confidence first, then warnings, then notes; the same list linemem search and the web app show"`
}

// Notice is one of memory.Response.Notices.
type Notice struct {
	Kind    string   `json:"kind" jsonschema:"not-found, low-confidence, warning or note"`
	Code    string   `json:"code" jsonschema:"stable machine-readable code, e.g. not-found, low-confidence, literal-fallback, filters-match-none, zero-query-vector"`
	Message string   `json:"message" jsonschema:"what to tell the person"`
	Missing []string `json:"missing,omitempty" jsonschema:"with not-found and low-confidence: the question's words the history never contains"`
}

// Confidence is how much of the question the best window holds
// (memory.ConfidenceOf), the threshold, and whether it is below it: then
// the history may not hold the answer.
type Confidence struct {
	Value     float64  `json:"value" jsonschema:"share of the question's terms, weighted by rarity, that the best window holds, 0 to 1"`
	Threshold float64  `json:"threshold"`
	Low       bool     `json:"low" jsonschema:"true: the history may not hold the answer; say so rather than answer from these results"`
	Missing   []string `json:"missing,omitempty" jsonschema:"the question's words the history never contains"`
}

// MessagesInput is get_messages' arguments as read from a call: exactly
// one of ChunkID and MessageID.
type MessagesInput struct {
	ChunkID   string `json:"chunk_id,omitempty"`
	MessageID string `json:"message_id,omitempty"`
	Before    *int   `json:"before,omitempty"` // nil: DefaultAround
	After     *int   `json:"after,omitempty"`  // nil: DefaultAround
}

// messagesParams are get_messages' arguments.
var messagesParams = []param{
	{name: "chunk_id", desc: "a chunk_id from search_memory: returns every message of that window"},
	{name: "message_id", desc: "a message id from search_memory or an earlier get_messages: returns it with the messages around it in the same chat"},
	{name: "before", integer: true, min: 0, max: MaxAround, def: DefaultAround, desc: "with message_id: how many messages before it"},
	{name: "after", integer: true, min: 0, max: MaxAround, def: DefaultAround, desc: "with message_id: how many messages after it"},
}

func readMessages(a args) MessagesInput {
	in := MessagesInput{ChunkID: a.str("chunk_id"), MessageID: a.str("message_id")}
	if a.has("before") {
		b := a.int("before", DefaultAround)
		in.Before = &b
	}
	if a.has("after") {
		n := a.int("after", DefaultAround)
		in.After = &n
	}
	return in
}

// MessagesOutput is get_messages' result.
type MessagesOutput struct {
	Chat     string    `json:"chat" jsonschema:"the chat's title, or its file name when it has none"`
	Source   string    `json:"source" jsonschema:"file name of the chat's export"`
	ChunkID  string    `json:"chunk_id,omitempty"`
	Start    string    `json:"start"`
	End      string    `json:"end"`
	Messages []Message `json:"messages"`
}

// Source is one chat of the memory.
type Source struct {
	Chat     string `json:"chat" jsonschema:"the chat's title from its export's header (the other person's or the group's name), or its file name when it has none"`
	Label    string `json:"source" jsonschema:"file name of the chat's export; search_memory's source filter takes it or the title"`
	First    string `json:"first" jsonschema:"time of its first chunked message"`
	Last     string `json:"last" jsonschema:"time of its last chunked message"`
	Messages int    `json:"messages"`
	Chunks   int    `json:"chunks"`
}

// SourcesOutput is list_sources' result.
type SourcesOutput struct {
	Sources []Source `json:"sources"`
}

// VectorSet is one stored set of chunk vectors.
type VectorSet struct {
	Rep   string `json:"rep" jsonschema:"representation embedded: raw_text, summary or embedding_text"`
	Model string `json:"model"`
	Dim   int    `json:"dim"`
	Count int    `json:"count"`
}

// StatsOutput is memory_stats' result.
type StatsOutput struct {
	Sources          int         `json:"sources"`
	Messages         int         `json:"messages"`
	Chunks           int         `json:"chunks"`
	Summaries        int         `json:"summaries" jsonschema:"chunks with a stored summary, of the chats this server shows"`
	First            string      `json:"first"`
	Last             string      `json:"last"`
	DefaultRetriever string      `json:"default_retriever"`
	Tokenizer        string      `json:"tokenizer" jsonschema:"tokenizer of BM25 retrievers and of match marking"`
	VectorSets       []VectorSet `json:"vector_sets" jsonschema:"embedding models with stored chunk vectors; dense and hybrid retrievers need one"`
	Redaction        string      `json:"redaction" jsonschema:"identifiers masked in every result (none, or kinds such as email,url,phone,name)"`
	Restricted       bool        `json:"restricted_sources" jsonschema:"true when this server shows only some of the memory's chats"`
}

func (s *Server) addTools(srv *mcp.Server) error {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}
	if err := addTool(s, srv, &mcp.Tool{
		Name:        ToolSearch,
		Title:       "Search LINE memory",
		Annotations: readOnly,
		Description: "Search the user's LINE chat history for conversations about a question. " +
			"Returns ranked conversation windows (chunks), each with its chat's title and file name, date range, the messages that contain words of the question (matched: true) and a message of context around each. " +
			"Use it for anything the user may have said, planned or been told in their chats. " +
			"Narrow with since/until (dates), source (a chat's title or file name from list_sources) or sender. " +
			"Pass a result's chunk_id, or a message id, to get_messages to read more.",
	}, searchParams, func(ctx context.Context, a args) (SearchOutput, any, error) {
		in := readSearch(a)
		out, err := s.search(ctx, in)
		return out, in, err
	}); err != nil {
		return err
	}
	if err := addTool(s, srv, &mcp.Tool{
		Name:        ToolMessages,
		Title:       "Read LINE messages",
		Annotations: readOnly,
		Description: "Read messages from the user's LINE history: give chunk_id (from search_memory) for a whole conversation window, " +
			"or message_id with before/after counts for the messages around one message in the same chat. Give exactly one of chunk_id and message_id.",
	}, messagesParams, func(ctx context.Context, a args) (MessagesOutput, any, error) {
		in := readMessages(a)
		out, err := s.messages(ctx, in)
		return out, in, err
	}); err != nil {
		return err
	}
	if err := addTool(s, srv, &mcp.Tool{
		Name:        ToolSources,
		Title:       "List LINE chats",
		Annotations: readOnly,
		Description: "List the chats (sources) in the user's LINE memory with their titles, file names, date ranges and message counts. Use a title or file name as search_memory's source filter.",
	}, nil, func(ctx context.Context, a args) (SourcesOutput, any, error) {
		out, err := s.sources(ctx)
		return out, struct{}{}, err
	}); err != nil {
		return err
	}
	if err := addTool(s, srv, &mcp.Tool{
		Name:        ToolStats,
		Title:       "LINE memory statistics",
		Annotations: readOnly,
		Description: "Say what the memory holds (chats, messages, conversation windows, summaries, date range) and how it searches (default retriever, tokenizer, embedding models, redaction).",
	}, nil, func(ctx context.Context, a args) (StatsOutput, any, error) {
		out, err := s.stats(ctx)
		return out, struct{}{}, err
	}); err != nil {
		return err
	}
	return nil
}

// errBadArgument marks an argument the caller can correct.
var errBadArgument = errors.New("bad argument")

func (s *Server) search(ctx context.Context, in SearchInput) (SearchOutput, error) {
	q := memory.Query{Text: in.Question, K: DefaultK}
	if in.K != nil {
		q.K = *in.K
	}
	m, err := s.memory(in.Retriever)
	if err != nil {
		return SearchOutput{}, err
	}
	f := memory.Filters{Since: in.Since, Until: in.Until, Sender: in.Sender}
	if in.Source != "" {
		f.Sources = []string{in.Source}
	}
	if err := m.ParseFilters(&q, f, s.allowedSources()); err != nil {
		if errors.Is(err, memory.ErrNoSuchName) {
			return SearchOutput{}, fmt.Errorf("%w: %s", errBadArgument, s.red(err.Error()))
		}
		return SearchOutput{}, err
	}
	if err := q.Validate(); err != nil {
		return SearchOutput{}, err
	}
	resp, err := m.Search(ctx, q)
	if err != nil {
		return SearchOutput{}, err
	}
	out := SearchOutput{Retriever: resp.Retriever, Tokenizer: resp.Tokenizer, Results: []Hit{}, Notices: []Notice{}}
	for _, n := range resp.Notices {
		out.Notices = append(out.Notices, Notice{Kind: string(n.Kind), Code: n.Code, Message: s.red(n.Message), Missing: n.Missing})
	}
	if c := resp.Confidence; c != nil {
		out.Confidence = &Confidence{Value: c.Value, Threshold: c.Threshold, Low: c.Low, Missing: c.Missing}
		if c.Low {
			out.Warnings = append(out.Warnings, memory.NotFoundNote(*c))
		}
	}
	for _, w := range resp.Warnings {
		out.Warnings = append(out.Warnings, s.red(w))
	}
	for _, r := range resp.Results {
		h := Hit{Rank: r.Rank, ChunkID: r.ChunkID, Score: r.Score, Chat: s.chat(m, r.Source), Source: s.red(r.Source), Start: stamp(r.StartAt), End: stamp(r.EndAt), Total: r.InWindow(), Why: r.Why, Messages: []Message{}}
		for _, i := range excerpt(r) {
			msg := s.message(r.Messages[i])
			msg.Role = r.Role(i)
			msg.Text = cut(msg.Text, MaxMessageRunes)
			h.Messages = append(h.Messages, msg)
		}
		out.Results = append(out.Results, h)
	}
	return out, nil
}

// chat is how the tools label source: its chat title, or its file name
// when it has none, redacted.
func (s *Server) chat(m *memory.Memory, source string) string {
	if t := m.Title(source); t != "" {
		return s.red(t)
	}
	return s.red(source)
}

// excerpt picks the message indices a result shows: memory.Result.Shown
// with memory.DefaultContext, as `linemem search` shows them; when that is
// more than MaxExcerpt messages, with less context (down to none) so the
// matches, replies and lines carrying what is asked come first; then the
// first MaxExcerpt of them. None when no message matches.
func excerpt(r memory.Result) []int {
	shown := r.Shown(memory.DefaultContext)
	for c := memory.DefaultContext - 1; c >= 0 && len(shown) > MaxExcerpt; c-- {
		shown = r.Shown(c)
	}
	return shown[:min(len(shown), MaxExcerpt)]
}

func (s *Server) messages(_ context.Context, in MessagesInput) (MessagesOutput, error) {
	m, err := s.memory("")
	if err != nil {
		return MessagesOutput{}, err
	}
	switch {
	case (in.ChunkID == "") == (in.MessageID == ""):
		return MessagesOutput{}, fmt.Errorf("%w: give exactly one of chunk_id and message_id", errBadArgument)
	case in.ChunkID != "":
		if in.Before != nil || in.After != nil {
			return MessagesOutput{}, fmt.Errorf("%w: before and after go with message_id; a chunk_id returns the whole window", errBadArgument)
		}
		r, err := m.Chunk(in.ChunkID)
		if err != nil || !s.allows(r.Source) {
			return MessagesOutput{}, fmt.Errorf("%w: no chunk %q; chunk IDs come from search_memory results", errBadArgument, in.ChunkID)
		}
		out := MessagesOutput{Chat: s.chat(m, r.Source), Source: s.red(r.Source), ChunkID: r.ChunkID, Start: stamp(r.StartAt), End: stamp(r.EndAt), Messages: []Message{}}
		for _, msg := range r.Messages {
			out.Messages = append(out.Messages, s.message(msg))
		}
		return out, nil
	}
	before, after := DefaultAround, DefaultAround
	if in.Before != nil {
		before = *in.Before
	}
	if in.After != nil {
		after = *in.After
	}
	if before < 0 || before > MaxAround || after < 0 || after > MaxAround {
		return MessagesOutput{}, fmt.Errorf("%w: before and after must be between 0 and %d, got %d and %d", errBadArgument, MaxAround, before, after)
	}
	found, err := s.cfg.Store.MessagesByID([]string{in.MessageID})
	if err != nil {
		return MessagesOutput{}, err
	}
	target, ok := found[in.MessageID]
	if !ok || !s.allows(target.Source) {
		return MessagesOutput{}, fmt.Errorf("%w: no message %q; message IDs come from search_memory or get_messages results", errBadArgument, in.MessageID)
	}
	msgs, err := m.Around(in.MessageID, before, after)
	if err != nil {
		return MessagesOutput{}, err
	}
	out := MessagesOutput{Chat: s.chat(m, target.Source), Source: s.red(target.Source), Messages: []Message{}}
	for _, msg := range msgs {
		out.Messages = append(out.Messages, s.message(msg))
	}
	if len(msgs) > 0 {
		out.Start, out.End = stamp(msgs[0].At), stamp(msgs[len(msgs)-1].At)
	}
	return out, nil
}

func (s *Server) sources(context.Context) (SourcesOutput, error) {
	m, err := s.memory("")
	if err != nil {
		return SourcesOutput{}, err
	}
	infos, err := m.Sources()
	if err != nil {
		return SourcesOutput{}, err
	}
	out := SourcesOutput{Sources: []Source{}}
	for _, si := range infos {
		if s.allows(si.Name) {
			out.Sources = append(out.Sources, Source{Chat: s.chat(m, si.Name), Label: s.red(si.Name), First: stamp(si.First), Last: stamp(si.Last), Messages: si.Messages, Chunks: si.Chunks})
		}
	}
	return out, nil
}

func (s *Server) stats(context.Context) (StatsOutput, error) {
	m, err := s.memory("")
	if err != nil {
		return StatsOutput{}, err
	}
	st, err := s.cfg.Store.Stats()
	if err != nil {
		return StatsOutput{}, err
	}
	summaries, err := s.cfg.Store.SummaryCounts()
	if err != nil {
		return StatsOutput{}, err
	}
	out := StatsOutput{
		DefaultRetriever: m.Retriever(),
		Tokenizer:        m.Tokenizer(),
		VectorSets:       []VectorSet{},
		Redaction:        s.cfg.Redactor.Describe(),
		Restricted:       s.allowed != nil,
	}
	infos, err := m.Sources()
	if err != nil {
		return StatsOutput{}, err
	}
	var first, last time.Time
	for _, si := range infos {
		if !s.allows(si.Name) {
			continue
		}
		out.Sources++
		out.Summaries += summaries[si.Name]
		out.Messages += si.Messages
		out.Chunks += si.Chunks
		if first.IsZero() || !si.First.IsZero() && si.First.Before(first) {
			first = si.First
		}
		if si.Last.After(last) {
			last = si.Last
		}
	}
	out.First, out.Last = stamp(first), stamp(last)
	for _, v := range st.VectorSets {
		out.VectorSets = append(out.VectorSets, VectorSet(v))
	}
	return out, nil
}

// message converts and redacts one message.
func (s *Server) message(m memory.Message) Message {
	return Message{ID: m.ID, At: stamp(m.At), Sender: s.red(m.Sender), Type: m.Type, Text: s.red(m.Text), Matched: len(m.Matches) > 0, Later: m.Later}
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(chat.TimestampLayout)
}

// cut shortens text to n code points, marking the cut with "…".
func cut(text string, n int) string {
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	return string([]rune(text)[:n]) + "…"
}
