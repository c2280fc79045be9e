package mcpserver_test

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/mcpserver"
	"github.com/linemem/linemem/lib/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Serve a memory over the SDK's in-memory transport and list its tools as a
// client sees them.
func Example() {
	st, err := store.Open(":memory:")
	if err != nil {
		panic(err)
	}
	defer st.Close()
	if _, err := ingest.File(st, filepath.Join("testdata", "hanako.txt"), chunking.DefaultOptions()); err != nil {
		panic(err)
	}
	server, err := mcpserver.New(mcpserver.Config{Store: st})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverEnd, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		panic(err)
	}
	for _, t := range tools.Tools {
		fmt.Println(t.Name)
	}
	// Output:
	// get_messages
	// list_sources
	// memory_stats
	// search_memory
}
