package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
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

// toolFunc runs one tool on its decoded arguments; it returns the result
// and the arguments as they are logged.
type toolFunc[Out any] func(ctx context.Context, a args) (out Out, logged any, err error)

// addTool registers a tool whose arguments are params (its input schema is
// inputSchema(params)) and whose result is Out (its output schema is
// inferred from Out). Arguments are read by decodeArgs, in the server's own
// words when they are wrong; an error of h is a tool error the model reads.
// Each call is recorded in the call log: the arguments (strings cut to
// MaxLoggedArgRunes), whether it succeeded and how many items it returned —
// never the returned text.
func addTool[Out any](s *Server, srv *mcp.Server, t *mcp.Tool, params []param, h toolFunc[Out]) error {
	outSchema, err := jsonschema.For[Out](nil)
	if err != nil {
		return fmt.Errorf("mcpserver: output schema of %s: %w", t.Name, err)
	}
	t.InputSchema = inputSchema(params)
	t.OutputSchema = outSchema
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := time.Now()
		var raw json.RawMessage
		if req.Params != nil {
			raw = req.Params.Arguments
		}
		rec := CallRecord{Time: start.UTC().Format("2006-01-02T15:04:05.000Z07:00"), Tool: t.Name}
		var out Out
		var logged any = raw
		a, err := decodeArgs(raw, params)
		if err == nil {
			out, logged, err = h(ctx, a)
		}
		rec.Arguments, rec.OK, rec.Millis = loggedArgs(logged), err == nil, time.Since(start).Milliseconds()
		if c, ok := any(out).(counted); ok && err == nil {
			n := c.count()
			rec.Results = &n
		}
		s.log.write(rec)
		if err != nil {
			res := &mcp.CallToolResult{}
			res.SetError(err)
			return res, nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{StructuredContent: json.RawMessage(b), Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	})
	return nil
}

// loggedArgs renders in as a JSON object with long strings cut.
func loggedArgs(in any) map[string]any {
	b, err := json.Marshal(in)
	out := map[string]any{}
	if err != nil || json.Unmarshal(b, &out) != nil {
		return out
	}
	for k, v := range out {
		if str, ok := v.(string); ok && len([]rune(str)) > MaxLoggedArgRunes {
			out[k] = map[string]any{"cut": cut(str, MaxLoggedArgRunes), "bytes": len(str)}
		}
	}
	return out
}
