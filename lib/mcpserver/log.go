package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLoggedArgRunes caps each string argument in the call log; a longer one
// is cut and its length in bytes noted.
const MaxLoggedArgRunes = 200

// CallRecord is one line of the call log.
type CallRecord struct {
	Time      string         `json:"time"` // UTC, RFC 3339 with milliseconds
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	OK        bool           `json:"ok"`                // false: the call returned a tool error
	Results   *int           `json:"results,omitempty"` // search_memory: hits returned; get_messages: messages returned
	Millis    int64          `json:"ms"`
}

// callLog writes CallRecords as JSON lines; a nil writer logs nothing.
type callLog struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func newCallLog(w io.Writer) *callLog {
	if w == nil {
		return &callLog{}
	}
	return &callLog{enc: json.NewEncoder(w)}
}

func (l *callLog) write(r CallRecord) {
	if l.enc == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = l.enc.Encode(r) // the log must not fail a call
}

// counted is an output that knows how many items it returns.
type counted interface{ count() int }

func (o SearchOutput) count() int   { return len(o.Results) }
func (o MessagesOutput) count() int { return len(o.Messages) }

// logged wraps a tool handler so each call is recorded: the arguments as
// the client sent them (strings cut to MaxLoggedArgRunes), whether it
// succeeded and how many items it returned — never the returned text.
func logged[In, Out any](s *Server, tool string, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		start := time.Now()
		res, out, err := h(ctx, req, in)
		rec := CallRecord{Time: start.UTC().Format("2006-01-02T15:04:05.000Z07:00"), Tool: tool, Arguments: loggedArgs(in), OK: err == nil, Millis: time.Since(start).Milliseconds()}
		if c, ok := any(out).(counted); ok && err == nil {
			n := c.count()
			rec.Results = &n
		}
		s.log.write(rec)
		return res, out, err
	}
}

// loggedArgs renders in as a JSON object with long strings cut.
func loggedArgs(in any) map[string]any {
	b, err := json.Marshal(in)
	args := map[string]any{}
	if err != nil || json.Unmarshal(b, &args) != nil {
		return args
	}
	for k, v := range args {
		if str, ok := v.(string); ok && len([]rune(str)) > MaxLoggedArgRunes {
			args[k] = map[string]any{"cut": cut(str, MaxLoggedArgRunes), "bytes": len(str)}
		}
	}
	return args
}
