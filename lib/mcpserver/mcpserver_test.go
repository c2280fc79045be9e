package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/mcpserver"
	"github.com/linemem/linemem/lib/redact"
	"github.com/linemem/linemem/lib/store"
)

// The fixture: testdata/hanako.txt (a one-to-one chat, four sessions) and
// testdata/club.txt (a group, three sessions); every session is one chunk.
// The planted fact is hanako.txt's 2024-10-15 message about the poster
// deadline; club.txt also mentions ポスター, without 締切.
const (
	hanako      = "hanako.txt"
	club        = "club.txt"
	plantedText = "文化祭のポスターの締切は11月8日の金曜日だって"
	phone       = "090-1234-5678"
)

func fixtureStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, name := range []string{hanako, club} {
		if _, err := ingest.File(st, filepath.Join("testdata", name), chunking.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// connect serves cfg over the SDK's in-memory transport and returns a client session.
func connect(t testing.TB, cfg mcpserver.Config) *mcp.ClientSession {
	t.Helper()
	server, err := mcpserver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls tool and decodes its structured result into out; it returns
// the tool error text, "" on success.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", tool, args, err)
	}
	if res.IsError {
		var msg strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				msg.WriteString(tc.Text)
			}
		}
		return msg.String()
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v in %s", tool, err, b)
	}
	return ""
}

func TestListTools(t *testing.T) {
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t)})
	for _, want := range []string{"cannot know where", "自分", "Me", "the user's own"} {
		if !strings.Contains(cs.InitializeResult().Instructions, want) {
			t.Errorf("initialize instructions lack %q (the privacy note, which sender is the user):\n%s", want, cs.InitializeResult().Instructions)
		}
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{ // tool → properties its input schema must have
		mcpserver.ToolSearch:   {"question", "k", "retriever", "since", "until", "source", "sender"},
		mcpserver.ToolMessages: {"chunk_id", "message_id", "before", "after"},
		mcpserver.ToolSources:  nil,
		mcpserver.ToolStats:    nil,
	}
	if len(res.Tools) != len(want) {
		t.Errorf("%d tools, want %d", len(res.Tools), len(want))
	}
	for _, tool := range res.Tools {
		props, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		if len(tool.Description) < 80 {
			t.Errorf("%s: description %q is too short to guide a model", tool.Name, tool.Description)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
		schema, _ := tool.InputSchema.(map[string]any)
		if schema["type"] != "object" {
			t.Errorf("%s: input schema %v is not an object schema", tool.Name, tool.InputSchema)
		}
		got, _ := schema["properties"].(map[string]any)
		for _, p := range props {
			prop, ok := got[p].(map[string]any)
			if !ok || prop["description"] == nil {
				t.Errorf("%s: input schema has no described property %q", tool.Name, p)
			}
		}
	}
}

func TestSearchMemory(t *testing.T) {
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t)})
	var out mcpserver.SearchOutput
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "ポスターの締切"}, &out); e != "" {
		t.Fatal(e)
	}
	if len(out.Results) == 0 {
		t.Fatal("no results")
	}
	first := out.Results[0]
	if first.Source != hanako || first.Rank != 1 || first.ChunkID == "" {
		t.Errorf("first result %+v, want rank 1 from %s", first, hanako)
	}
	found := false
	for _, m := range first.Messages {
		if m.Text == plantedText {
			found = m.Matched && m.ID != "" && m.At == "2024-10-15T20:01:00"
		}
	}
	if !found {
		t.Errorf("first result's messages do not show the planted fact, matched, with ID and time: %+v", first.Messages)
	}

	t.Run("filters", func(t *testing.T) {
		cases := []struct {
			name string
			args map[string]any
			ok   func(mcpserver.Hit) bool
		}{
			{"source", map[string]any{"source": club}, func(h mcpserver.Hit) bool { return h.Source == club }},
			{"since", map[string]any{"since": "2024-10-21"}, func(h mcpserver.Hit) bool { return h.End >= "2024-10-21" }},
			{"until a date means its end", map[string]any{"until": "2024-10-15"}, func(h mcpserver.Hit) bool { return h.Start <= "2024-10-15T23:59:59" }},
			{"sender", map[string]any{"sender": "山田"}, func(h mcpserver.Hit) bool { return h.Source == club }},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				args := map[string]any{"question": "ポスター", "k": 10}
				for k, v := range c.args {
					args[k] = v
				}
				var out mcpserver.SearchOutput
				if e := call(t, cs, mcpserver.ToolSearch, args, &out); e != "" {
					t.Fatal(e)
				}
				if len(out.Results) == 0 {
					t.Fatalf("no results for %v", args)
				}
				for _, h := range out.Results {
					if !c.ok(h) {
						t.Errorf("%v: result %s (%s, %s … %s) breaks the filter", c.args, h.ChunkID, h.Source, h.Start, h.End)
					}
				}
			})
		}
	})
	t.Run("k", func(t *testing.T) {
		var out mcpserver.SearchOutput
		if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "ポスター", "k": 1}, &out); e != "" || len(out.Results) != 1 {
			t.Errorf("k=1 gave %d results, error %q", len(out.Results), e)
		}
	})
}

func TestBadArguments(t *testing.T) {
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t)})
	cases := []struct {
		name string
		tool string
		args map[string]any
		want string // in the tool error
	}{
		{"k zero", mcpserver.ToolSearch, map[string]any{"question": "締切", "k": 0}, "k must be"},
		{"k negative", mcpserver.ToolSearch, map[string]any{"question": "締切", "k": -1}, "k must be"},
		{"k not a number", mcpserver.ToolSearch, map[string]any{"question": "締切", "k": "five"}, "k"},
		{"unparsable since", mcpserver.ToolSearch, map[string]any{"question": "締切", "since": "last week"}, "not a date"},
		{"unparsable until", mcpserver.ToolSearch, map[string]any{"question": "締切", "until": "2024-13-45"}, "not a date"},
		{"since after until", mcpserver.ToolSearch, map[string]any{"question": "締切", "since": "2024-11-01", "until": "2024-10-01"}, "after"},
		{"empty question", mcpserver.ToolSearch, map[string]any{"question": " "}, "empty"},
		{"missing question", mcpserver.ToolSearch, map[string]any{}, "question"},
		{"question of 1 MB", mcpserver.ToolSearch, map[string]any{"question": strings.Repeat("締", 1<<20/3)}, "bytes"},
		{"unknown source", mcpserver.ToolSearch, map[string]any{"question": "締切", "source": "nobody.txt"}, "no chat is called"},
		{"unknown sender", mcpserver.ToolSearch, map[string]any{"question": "締切", "sender": "山本"}, `no one called "山本" wrote in these chats; closest: "山田"`},
		{"unknown source in a list", mcpserver.ToolSearch, map[string]any{"question": "締切", "source": "club.txt,nobody.txt"}, `no chat is called "nobody.txt"`},
		{"unknown retriever", mcpserver.ToolSearch, map[string]any{"question": "締切", "retriever": "grep"}, "grep"},
		{"unknown chunk", mcpserver.ToolMessages, map[string]any{"chunk_id": "c_nope"}, "no chunk"},
		{"unknown message", mcpserver.ToolMessages, map[string]any{"message_id": "m_nope"}, "no message"},
		{"neither ID", mcpserver.ToolMessages, map[string]any{}, "exactly one"},
		{"both IDs", mcpserver.ToolMessages, map[string]any{"chunk_id": "a", "message_id": "b"}, "exactly one"},
		{"before too large", mcpserver.ToolMessages, map[string]any{"message_id": "m", "before": 1000}, "from 0 to 100"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out any
			e := call(t, cs, c.tool, c.args, &out)
			if e == "" || !strings.Contains(e, c.want) {
				t.Errorf("%s(%.80v): tool error %q, want one containing %q", c.tool, c.args, e, c.want)
			}
			if len(e) > 300 {
				t.Errorf("tool error is %d bytes; it should not echo the input", len(e))
			}
		})
	}
	var out mcpserver.SearchOutput
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "締切"}, &out); e != "" || len(out.Results) == 0 {
		t.Errorf("after the bad calls a good one gave %d results, error %q", len(out.Results), e)
	}
}

func TestGetMessages(t *testing.T) {
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t)})
	var found mcpserver.SearchOutput
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "ポスターの締切", "k": 1}, &found); e != "" {
		t.Fatal(e)
	}
	hit := found.Results[0]
	var chunk mcpserver.MessagesOutput
	if e := call(t, cs, mcpserver.ToolMessages, map[string]any{"chunk_id": hit.ChunkID}, &chunk); e != "" {
		t.Fatal(e)
	}
	if chunk.ChunkID != hit.ChunkID || len(chunk.Messages) != hit.Total || chunk.Start != hit.Start || chunk.End != hit.End {
		t.Errorf("get_messages(chunk) = %+v, want the %d messages of %s", chunk, hit.Total, hit.ChunkID)
	}
	// hanako.txt in order: 4 messages on 10-01, then the planted one at position 4.
	var around mcpserver.MessagesOutput
	planted := chunk.Messages[0]
	if e := call(t, cs, mcpserver.ToolMessages, map[string]any{"message_id": planted.ID, "before": 2, "after": 1}, &around); e != "" {
		t.Fatal(e)
	}
	if len(around.Messages) != 2+1+1 || around.Messages[2].ID != planted.ID || around.Messages[0].Text != "ありがとう" {
		t.Errorf("get_messages(message, before 2, after 1) = %+v", around.Messages)
	}
	if e := call(t, cs, mcpserver.ToolMessages, map[string]any{"message_id": planted.ID, "before": 0, "after": 0}, &around); e != "" || len(around.Messages) != 1 {
		t.Errorf("before 0, after 0 gave %d messages, error %q", len(around.Messages), e)
	}
}

func TestSourcesAndStats(t *testing.T) {
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t)})
	var src mcpserver.SourcesOutput
	if e := call(t, cs, mcpserver.ToolSources, nil, &src); e != "" {
		t.Fatal(e)
	}
	want := []mcpserver.Source{
		{Chat: "写真部", Label: club, First: "2024-09-10T12:00:00", Last: "2024-11-10T21:01:00", Messages: 9, Chunks: 3},
		{Chat: "佐藤花子", Label: hanako, First: "2024-10-01T09:05:00", Last: "2024-11-02T10:07:00", Messages: 16, Chunks: 4},
	}
	if len(src.Sources) != len(want) {
		t.Fatalf("list_sources = %+v, want %+v", src.Sources, want)
	}
	for i := range want {
		if src.Sources[i] != want[i] {
			t.Errorf("source %d = %+v, want %+v", i, src.Sources[i], want[i])
		}
	}
	for _, filter := range []string{"佐藤花子", hanako, "Hanako"} {
		var out mcpserver.SearchOutput
		if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "ポスター", "source": filter}, &out); e != "" || len(out.Results) == 0 {
			t.Fatalf("source %q: %d results, error %q", filter, len(out.Results), e)
		}
		for _, h := range out.Results {
			if h.Chat != "佐藤花子" || h.Source != hanako {
				t.Errorf("source %q: result labelled %q (%s), want 佐藤花子 (%s)", filter, h.Chat, h.Source, hanako)
			}
		}
	}
	var stats mcpserver.StatsOutput
	if e := call(t, cs, mcpserver.ToolStats, nil, &stats); e != "" {
		t.Fatal(e)
	}
	if stats.Sources != 2 || stats.Messages != 9+16 || stats.Chunks != 3+4 || stats.First != want[0].First || stats.Last != want[0].Last ||
		stats.DefaultRetriever == "" || stats.Tokenizer == "" || stats.Redaction != "none" || stats.Restricted {
		t.Errorf("memory_stats = %+v", stats)
	}
}

func TestRedact(t *testing.T) {
	red, err := redact.New([]string{"all"}, []string{"佐藤花子"})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t), Redactor: red})
	var out mcpserver.SearchOutput
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "居酒屋 電話", "k": 7}, &out); e != "" {
		t.Fatal(e)
	}
	var chunk mcpserver.MessagesOutput
	if e := call(t, cs, mcpserver.ToolMessages, map[string]any{"chunk_id": out.Results[0].ChunkID}, &chunk); e != "" {
		t.Fatal(e)
	}
	var contact mcpserver.SearchOutput
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "連絡"}, &contact); e != "" {
		t.Fatal(e)
	}
	var src mcpserver.SourcesOutput
	call(t, cs, mcpserver.ToolSources, nil, &src)
	all, _ := json.Marshal([]any{out, chunk, contact, src})
	for _, secret := range []string{phone, "club@example.com", "佐藤花子"} {
		if bytes.Contains(all, []byte(secret)) {
			t.Errorf("%q returned despite redaction", secret)
		}
	}
	for _, mark := range []string{redact.PhonePlaceholder, redact.NamePlaceholder, redact.EmailPlaceholder} {
		if !bytes.Contains(all, []byte(mark)) {
			t.Errorf("no %s in the results", mark)
		}
	}
}

func TestSourcesRestriction(t *testing.T) {
	st := fixtureStore(t)
	if _, err := mcpserver.New(mcpserver.Config{Store: st, Sources: []string{"nobody.txt"}}); err == nil {
		t.Error("New with an unknown source succeeded")
	}
	cs := connect(t, mcpserver.Config{Store: st, Sources: []string{club}})
	var out mcpserver.SearchOutput
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "ポスターの締切", "k": 10}, &out); e != "" {
		t.Fatal(e)
	}
	for _, h := range out.Results {
		if h.Source != club {
			t.Errorf("result from %s with --sources %s", h.Source, club)
		}
	}
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "締切", "source": hanako}, &out); !strings.Contains(e, "no chat is called") {
		t.Errorf("search in an excluded source: error %q", e)
	}
	var src mcpserver.SourcesOutput
	call(t, cs, mcpserver.ToolSources, nil, &src)
	if len(src.Sources) != 1 || src.Sources[0].Label != club {
		t.Errorf("list_sources = %+v, want only %s", src.Sources, club)
	}
	var stats mcpserver.StatsOutput
	call(t, cs, mcpserver.ToolStats, nil, &stats)
	if stats.Sources != 1 || stats.Messages != 9 || !stats.Restricted {
		t.Errorf("memory_stats = %+v, want club.txt's counts only", stats)
	}
	// An ID from the excluded source is answered as unknown.
	full := connect(t, mcpserver.Config{Store: st})
	var hit mcpserver.SearchOutput
	call(t, full, mcpserver.ToolSearch, map[string]any{"question": "ポスターの締切", "k": 1, "source": hanako}, &hit)
	var msgs mcpserver.MessagesOutput
	if e := call(t, cs, mcpserver.ToolMessages, map[string]any{"chunk_id": hit.Results[0].ChunkID}, &msgs); !strings.Contains(e, "no chunk") {
		t.Errorf("get_messages on an excluded chunk: error %q", e)
	}
	if e := call(t, cs, mcpserver.ToolMessages, map[string]any{"message_id": hit.Results[0].Messages[0].ID}, &msgs); !strings.Contains(e, "no message") {
		t.Errorf("get_messages on an excluded message: error %q", e)
	}
}

func TestCallLog(t *testing.T) {
	var log bytes.Buffer
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t), CallLog: &log})
	var out mcpserver.SearchOutput
	call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "ポスターの締切", "k": 3}, &out)
	call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "締切", "k": 0}, &out)
	call(t, cs, mcpserver.ToolSearch, map[string]any{"question": strings.Repeat("a", 5000)}, &out)
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("log has %d lines, want 3:\n%s", len(lines), log.String())
	}
	var recs [3]mcpserver.CallRecord
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if r := recs[0]; r.Tool != mcpserver.ToolSearch || r.Arguments["question"] != "ポスターの締切" || r.Arguments["k"] != 3.0 || !r.OK || r.Results == nil || *r.Results != len(out.Results) && *r.Results != 3 {
		t.Errorf("first record %+v", r)
	}
	if recs[1].OK {
		t.Errorf("a call with k=0 logged as ok")
	}
	if len(lines[2]) > 2*mcpserver.MaxLoggedArgRunes+200 {
		t.Errorf("a 5,000-byte question was logged in %d bytes", len(lines[2]))
	}
	if strings.Contains(log.String(), plantedText) || strings.Contains(log.String(), "11月8日") {
		t.Error("the log holds returned text")
	}
}

// TestLiveIngest ingests a chat into the store a session is serving and
// checks that every tool sees it at the next call, in the same session.
func TestLiveIngest(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := ingest.File(st, filepath.Join("testdata", club), chunking.DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, mcpserver.Config{Store: st})
	var src mcpserver.SourcesOutput
	var stats mcpserver.StatsOutput
	var out mcpserver.SearchOutput
	call(t, cs, mcpserver.ToolSources, nil, &src)
	call(t, cs, mcpserver.ToolStats, nil, &stats)
	if len(src.Sources) != 1 || stats.Sources != 1 {
		t.Fatalf("before the ingest: %d sources listed, %d counted; want 1", len(src.Sources), stats.Sources)
	}
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "締切", "source": hanako}, &out); !strings.Contains(e, "no chat is called") {
		t.Fatalf("a source not yet ingested: error %q", e)
	}
	if _, err := ingest.File(st, filepath.Join("testdata", hanako), chunking.DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	call(t, cs, mcpserver.ToolSources, nil, &src)
	call(t, cs, mcpserver.ToolStats, nil, &stats)
	if len(src.Sources) != 2 || src.Sources[1].Label != hanako || stats.Sources != 2 || stats.Messages != 9+16 || stats.Chunks != 3+4 {
		t.Errorf("after the ingest: list_sources %+v, memory_stats %+v; want both chats", src.Sources, stats)
	}
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "ポスターの締切", "source": hanako, "k": 1}, &out); e != "" || len(out.Results) != 1 || out.Results[0].Messages[0].Text != plantedText {
		t.Errorf("search in the new source: %+v, error %q", out.Results, e)
	}
}

// TestStatsSummariesOfShownChats gives every chunk of both chats a summary
// and checks that memory_stats under --sources counts only the shown chat's.
func TestStatsSummariesOfShownChats(t *testing.T) {
	st := fixtureStore(t)
	spans, err := st.ChunkSpans()
	if err != nil {
		t.Fatal(err)
	}
	var rows []store.SummaryRow
	clubChunks := 0
	for _, c := range spans {
		rows = append(rows, store.SummaryRow{ChunkID: c.ID, Summary: "要約", Origin: "test"})
		if c.Source == club {
			clubChunks++
		}
	}
	if err := st.PutSummaries(rows); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sources []string
		want    int
	}{{nil, len(spans)}, {[]string{club}, clubChunks}} {
		var stats mcpserver.StatsOutput
		if e := call(t, connect(t, mcpserver.Config{Store: st, Sources: c.sources}), mcpserver.ToolStats, nil, &stats); e != "" {
			t.Fatal(e)
		}
		if stats.Summaries != c.want {
			t.Errorf("sources %v: %d summaries, want %d", c.sources, stats.Summaries, c.want)
		}
	}
}

// TestDerivedFilesPrivate checks that the index a search builds next to the
// database is readable by its owner only: it holds the chats' vocabulary.
func TestDerivedFilesPrivate(t *testing.T) {
	st := fixtureStore(t)
	var out mcpserver.SearchOutput
	if e := call(t, connect(t, mcpserver.Config{Store: st}), mcpserver.ToolSearch, map[string]any{"question": "締切"}, &out); e != "" {
		t.Fatal(e)
	}
	files := 0
	err := filepath.WalkDir(st.DerivedDir(), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if perm := info.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("%s: mode %v, want no access for group and others", path, perm)
		}
		if !d.IsDir() {
			files++
		}
		return nil
	})
	if err != nil || files == 0 {
		t.Errorf("derived folder %s: %d files, %v", st.DerivedDir(), files, err)
	}
}

// TestSearchFilterGrammar: search_memory reads its filters as `linemem
// search` does (memory.ParseFilters): a comma list of sources, and an RFC
// 3339 time with an offset.
func TestSearchFilterGrammar(t *testing.T) {
	t.Setenv("TZ", "UTC")
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t)})
	var out mcpserver.SearchOutput
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "ポスターの締切", "k": 20, "source": "club.txt, hanako.txt"}, &out); e != "" || len(out.Results) == 0 {
		t.Fatalf("source club.txt, hanako.txt: %d results, error %q", len(out.Results), e)
	}
	seen := map[string]bool{}
	for _, h := range out.Results {
		seen[h.Source] = true
	}
	if !seen[club] || !seen[hanako] {
		t.Errorf("a comma list of two sources gave results from %v", seen)
	}
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "締切", "since": "2024-10-01T00:00:00+09:00"}, &out); e != "" {
		t.Errorf("since with an offset: %q", e)
	}
}
