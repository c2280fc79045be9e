package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JSON-RPC error codes the server answers with besides the SDK's.
const (
	// CodeNotInitialized answers a request other than initialize or ping
	// that arrives before the session is initialized (the code the MCP
	// specification's reference servers use; the SDK sends 0).
	CodeNotInitialized = -32002
)

// cacheFieldsSince is the first protocol version whose list results carry
// ttlMs and cacheScope.
const cacheFieldsSince = "2026-07-28"

// protocolMiddleware puts the SDK's answers in the protocol's terms:
//
//   - A method's error that carries no JSON-RPC code (the SDK's "duplicate
//     initialize") is answered with -32600, invalid request, in the
//     server's own words.
//   - A result's ttlMs and cacheScope are dropped unless the session
//     speaks a protocol that has them (cacheFieldsSince and later); the
//     SDK sends them whatever version was negotiated.
func protocolMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			var wire *jsonrpc.Error
			if errors.As(err, &wire) {
				return nil, err
			}
			if method == "initialize" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "this session is already initialized; to start over, open a new session"}
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("%s failed: %v", method, err)}
		}
		if cacheable[method] && res != nil && !hasCacheFields(req) {
			res = withoutCacheFields{res}
		}
		return res, nil
	}
}

// cacheable are the methods whose results the SDK gives ttlMs and cacheScope.
var cacheable = map[string]bool{"tools/list": true, "prompts/list": true, "resources/list": true, "resources/templates/list": true, "resources/read": true}

// hasCacheFields reports whether req's session speaks a protocol whose
// results carry ttlMs and cacheScope.
func hasCacheFields(req mcp.Request) bool {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= cacheFieldsSince
}

// withoutCacheFields marshals a result without ttlMs and cacheScope.
type withoutCacheFields struct{ mcp.Result }

func (r withoutCacheFields) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(r.Result)
	if err != nil || !bytes.Contains(b, []byte(`"ttlMs"`)) && !bytes.Contains(b, []byte(`"cacheScope"`)) {
		return b, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return b, nil
	}
	delete(fields, "ttlMs")
	delete(fields, "cacheScope")
	return json.Marshal(fields)
}

// notInitialized matches the SDK's message for a request before initialize.
var notInitialized = regexp.MustCompile(`^method ("[^"]*") is invalid during session initialization$`)

// fixErrorCode rewrites one outgoing JSON-RPC message (a line, optionally
// an SSE "data: " line) whose error has code 0, which the SDK sends on
// stdio for a request before initialization and which JSON-RPC does not
// define: such a request gets CodeNotInitialized and a message saying what
// to send first, any other error -32603 (internal error). Other lines are
// returned as they are. (Over HTTP the SDK takes a session as initialized
// from its initialize request on, so the case does not arise there.)
func fixErrorCode(line []byte) []byte {
	if !bytes.Contains(line, []byte(`"code":0`)) {
		return line
	}
	prefix, body := []byte(nil), line
	if rest, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
		prefix, body = []byte("data: "), rest
	}
	trimmed := bytes.TrimRight(body, "\r\n")
	suffix := body[len(trimmed):]
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data,omitempty"`
		} `json:"error"`
	}
	if json.Unmarshal(trimmed, &msg) != nil || msg.Error == nil || msg.Error.Code != 0 {
		return line
	}
	if m := notInitialized.FindStringSubmatch(msg.Error.Message); m != nil {
		msg.Error.Code = CodeNotInitialized
		msg.Error.Message = "the session is not initialized: send initialize, then notifications/initialized, before " + m[1]
	} else {
		msg.Error.Code = jsonrpc.CodeInternalError
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return line
	}
	return append(append(prefix, b...), suffix...)
}
