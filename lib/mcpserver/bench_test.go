package mcpserver_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/mcpserver"
)

// BenchmarkCall measures one tool call over the in-memory transport,
// including the per-call check of the store's content key.
func BenchmarkCall(b *testing.B) {
	cs := connect(b, mcpserver.Config{Store: fixtureStore(b)})
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{mcpserver.ToolSources, nil},
		{mcpserver.ToolSearch, map[string]any{"question": "ポスターの締切", "k": "3"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.name, Arguments: c.args})
				if err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
}
