package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/mcpserver"
	"github.com/linemem/linemem/lib/memory"
)

// TestNumericSchemas checks that every numeric argument is a plain
// "integer" with minimum, maximum and default, the form generic clients
// coerce command-line strings by, and that no description repeats a number
// the schema states.
func TestNumericSchemas(t *testing.T) {
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t)})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]float64{ // tool.arg → minimum, maximum, default
		mcpserver.ToolSearch + ".k":        {1, memory.MaxK, mcpserver.DefaultK},
		mcpserver.ToolMessages + ".before": {0, mcpserver.MaxAround, mcpserver.DefaultAround},
		mcpserver.ToolMessages + ".after":  {0, mcpserver.MaxAround, mcpserver.DefaultAround},
	}
	seen := 0
	for _, tool := range res.Tools {
		schema := tool.InputSchema.(map[string]any)
		if schema["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties = %v, want false", tool.Name, schema["additionalProperties"])
		}
		props, _ := schema["properties"].(map[string]any)
		for name, p := range props {
			prop := p.(map[string]any)
			typ, isString := prop["type"].(string)
			if !isString || (typ != "string" && typ != "integer") {
				t.Errorf("%s.%s: type %v, want plain \"string\" or \"integer\"", tool.Name, name, prop["type"])
			}
			if typ != "integer" {
				continue
			}
			w, ok := want[tool.Name+"."+name]
			if !ok {
				t.Errorf("%s.%s: an integer argument this test does not know", tool.Name, name)
				continue
			}
			seen++
			if got := [3]any{prop["minimum"], prop["maximum"], prop["default"]}; got != [3]any{w[0], w[1], w[2]} {
				t.Errorf("%s.%s: minimum, maximum, default = %v, want %v", tool.Name, name, got, w)
			}
			if regexp.MustCompile(`[0-9]`).MatchString(prop["description"].(string)) {
				t.Errorf("%s.%s: description %q states a number the schema holds", tool.Name, name, prop["description"])
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d integer arguments, want %d", seen, len(want))
	}
}

// TestArgumentsAsStrings calls the tools with every value written as a
// string, as clients that coerce only by the schema's type send them when
// that type is not one they know, and with numbers where strings are due.
func TestArgumentsAsStrings(t *testing.T) {
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t)})
	var out mcpserver.SearchOutput
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "ポスター", "k": "2"}, &out); e != "" || len(out.Results) != 2 {
		t.Fatalf(`k "2": %d results, error %q`, len(out.Results), e)
	}
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "ポスター", "k": 2.0, "since": nil}, &out); e != "" || len(out.Results) != 2 {
		t.Fatalf(`k 2.0, since null: %d results, error %q`, len(out.Results), e)
	}
	var numeric mcpserver.SearchOutput
	if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": 11}, &numeric); e != "" {
		t.Fatalf(`question 11 (a number): error %q`, e)
	}
	var msgs mcpserver.MessagesOutput
	if e := call(t, cs, mcpserver.ToolMessages, map[string]any{"message_id": out.Results[0].Messages[0].ID, "before": "0", "after": " 1 "}, &msgs); e != "" || len(msgs.Messages) > 2 {
		t.Fatalf(`before "0", after " 1 ": %d messages, error %q`, len(msgs.Messages), e)
	}
}

// goInternals matches what a Go error leaks: type names, reflection, the
// encoding/json and schema validators' phrasing.
var goInternals = regexp.MustCompile(`Go (struct|value)|reflect|mcpserver\.|map\[|interface ?\{|\b(u?int|float)(8|16|32|64)?\b|unmarshal|validating|json:|\*[a-z]+\.[A-Z]`)

// TestErrorsInOwnWords sends every kind of bad argument and checks that
// each is a tool error naming the argument, in the server's own words.
func TestErrorsInOwnWords(t *testing.T) {
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t)})
	cases := []struct {
		tool string
		args string // raw JSON
		want string
	}{
		{mcpserver.ToolSearch, `{"question":null}`, "question is required"},
		{mcpserver.ToolSearch, `{}`, "question is required"},
		{mcpserver.ToolSearch, `{"question":["a"]}`, "question must be a string, got a list"},
		{mcpserver.ToolSearch, `{"question":{"a":1}}`, "question must be a string, got an object"},
		{mcpserver.ToolSearch, `{"question":true}`, "question must be a string, got true or false"},
		{mcpserver.ToolSearch, `{"question":"a","k":1e20}`, fmt.Sprintf("k must be a whole number from 1 to %d, got 1e20", memory.MaxK)},
		{mcpserver.ToolSearch, `{"question":"a","k":2.5}`, "k must be a whole number"},
		{mcpserver.ToolSearch, `{"question":"a","k":0}`, "k must be a whole number"},
		{mcpserver.ToolSearch, `{"question":"a","k":-3}`, "k must be a whole number"},
		{mcpserver.ToolSearch, `{"question":"a","k":"five"}`, `got "five"`},
		{mcpserver.ToolSearch, `{"question":"a","k":"NaN"}`, "k must be a whole number"},
		{mcpserver.ToolSearch, `{"question":"a","k":true}`, "k must be a whole number"},
		{mcpserver.ToolSearch, `{"question":"a","k":[3]}`, "got a list"},
		{mcpserver.ToolSearch, `{"question":"a","k":{"v":3}}`, "got an object"},
		{mcpserver.ToolSearch, `{"question":"a","K":3}`, `unknown argument "K"`},
		{mcpserver.ToolSearch, `{"question":"a","since":7}`, "not a date"},
		{mcpserver.ToolSearch, `{"question":"a","since":"2024-02-30"}`, "not a date"},
		{mcpserver.ToolSearch, `{"question":"a","until":{}}`, "until must be a string"},
		{mcpserver.ToolSearch, `{"question":"a","source":["x"]}`, "source must be a string"},
		{mcpserver.ToolSearch, `{"question":"a","sender":false}`, "sender must be a string"},
		{mcpserver.ToolSearch, `{"question":"a","retriever":"bm25:nope"}`, "bm25:nope"},
		{mcpserver.ToolSearch, `"x"`, "must be a JSON object"},
		{mcpserver.ToolSearch, `[1,2]`, "must be a JSON object"},
		{mcpserver.ToolMessages, `{"chunk_id":1}`, "no chunk"},
		{mcpserver.ToolMessages, `{"message_id":"m","before":-1}`, "before must be a whole number from 0 to 100"},
		{mcpserver.ToolMessages, `{"message_id":"m","after":"many"}`, "after must be a whole number"},
		{mcpserver.ToolMessages, `{"chunk_id":"c","before":1}`, "before and after go with message_id"},
		{mcpserver.ToolMessages, `{"chunk_id":null,"message_id":null}`, "exactly one"},
		{mcpserver.ToolSources, `{"x":1}`, `takes no arguments, got "x"`},
		{mcpserver.ToolStats, `{"verbose":true}`, `takes no arguments, got "verbose"`},
	}
	for _, c := range cases {
		t.Run(c.tool+" "+c.args, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)})
			if err != nil {
				t.Fatalf("protocol error %v; want a tool error", err)
			}
			if !res.IsError {
				t.Fatalf("no tool error")
			}
			msg := res.Content[0].(*mcp.TextContent).Text
			if !strings.Contains(msg, c.want) {
				t.Errorf("error %q, want one containing %q", msg, c.want)
			}
			if goInternals.MatchString(msg) {
				t.Errorf("error %q speaks of Go internals (%q)", msg, goInternals.FindString(msg))
			}
		})
	}
}

// TestRFC3339Times checks that since and until take RFC 3339 times with Z
// or an offset, converted to the server's time zone before they are
// compared with the stored local times.
func TestRFC3339Times(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = tokyo
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t)})
	// The planted message is at 2024-10-15T20:01:00 local, 11:01 UTC.
	cases := []struct {
		since, until string
		found        bool
	}{
		{"2024-10-15T11:00:00Z", "2024-10-15T11:05:00Z", true},
		{"2024-10-15T20:00:00+09:00", "2024-10-15T20:05:00.5+09:00", true},
		{"2024-10-15T07:00:00-04:00", "", true}, // 20:00 in Tokyo
		{"2024-10-15T12:00:00Z", "", false},     // 21:00 in Tokyo, after the window
		{"", "2024-10-15T10:00:00Z", false},     // 19:00 in Tokyo, before it
	}
	for _, c := range cases {
		var out mcpserver.SearchOutput
		if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": "ポスターの締切", "source": hanako, "since": c.since, "until": c.until}, &out); e != "" {
			t.Fatalf("since %q until %q: %s", c.since, c.until, e)
		}
		found := false
		for _, h := range out.Results {
			found = found || h.Start == "2024-10-15T20:01:00"
		}
		if found != c.found {
			t.Errorf("since %q until %q: the 20:01 window found %v, want %v", c.since, c.until, found, c.found)
		}
	}
}

// TestUnmarkedResultsSayWhy: a result in which no message matches carries
// no message, only why it was ranked; a result with a match carries no why.
func TestUnmarkedResultsSayWhy(t *testing.T) {
	cs := connect(t, mcpserver.Config{Store: fixtureStore(t)})
	unmarked := 0
	for _, q := range []string{"11", "ポスター"} {
		var out mcpserver.SearchOutput
		if e := call(t, cs, mcpserver.ToolSearch, map[string]any{"question": q, "k": 5}, &out); e != "" {
			t.Fatalf("%s: %s", q, e)
		}
		for _, h := range out.Results {
			if (len(h.Messages) == 0) != (h.Why != "") {
				t.Errorf("%s #%d: %d messages, why %q; want messages or a reason, never both or neither", q, h.Rank, len(h.Messages), h.Why)
			}
			if len(h.Messages) == 0 {
				unmarked++
			}
		}
	}
	if unmarked == 0 {
		t.Error("no result without a match: the fixture no longer exercises the case")
	}
}
