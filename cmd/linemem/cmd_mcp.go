package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/mcpserver"
	"github.com/linemem/linemem/lib/memory"
)

func init() {
	register(&command{
		name:    "mcp",
		summary: "serve the memory to assistants over the Model Context Protocol (stdio, or --http on loopback)",
		usage: `[--http 127.0.0.1:PORT [--token-file FILE] [--idle-timeout D]] [--sources A,B] [--redact KINDS [--redact-names FILE]] [--log FILE]

Without --http the server speaks MCP on stdin/stdout, the way a client that
starts it expects; requests piped in from a script are all answered before
it exits at end of input, a line that is not a JSON-RPC 2.0 message with an
error naming the line. --http serves the streamable HTTP transport at
http://HOST:PORT/mcp, loopback addresses only; a request whose Origin is
another site is refused (403), and with --token-file every request must
carry "Authorization: Bearer TOKEN" (else 401; a token file others may
read is refused with the chmod 600 to run). A session is closed after
--idle-timeout with no request in progress: a client's open event stream
and its keep-alive pings keep it, and a request naming a closed session is
answered 404 saying to initialize again. Tools: search_memory,
get_messages, list_sources, memory_stats. The server cannot know where a
client sends what it returns: --redact masks identifiers in every result
(all: e-mail addresses, URLs and phone numbers, and names only when
--redact-names gives them), --sources confines it to some chats, --log
records each call's tool and arguments (never returned text).`,
		run: runMCP,
	})
}

// mcpPath is where --http serves the protocol.
const mcpPath = "/mcp"

func runMCP(env *environment, c *command, args []string) error {
	var db, httpAddr, sources, logPath, tokenFile string
	var idle time.Duration
	var red remoteFlags
	var opts memory.Options
	fs := newFlagSet(env, c, &db)
	fs.StringVar(&httpAddr, "http", "", "serve streamable HTTP on `ADDR` (127.0.0.1:PORT or [::1]:PORT; loopback only) instead of stdio")
	fs.StringVar(&tokenFile, "token-file", "", "with --http: require the bearer token in `FILE` (one line) on every request")
	fs.DurationVar(&idle, "idle-timeout", mcpserver.DefaultIdleTimeout, "with --http: close a session after `D` without a request in progress (an open event stream is one; 0: never)")
	fs.StringVar(&sources, "sources", "", "comma list of source `NAMES` the server may show (default: all)")
	fs.StringVar(&logPath, "log", "", "append one JSON line per tool call (tool, arguments, outcome; no returned text) to `FILE`")
	fs.StringVar(&red.redactKinds, "redact", "", "mask `KINDS` in everything returned: comma list of email, url, phone, name; all = email,url,phone, and names too only when --redact-names gives them")
	fs.StringVar(&red.redactNames, "redact-names", "", "`FILE` of names to mask, one per line (implies name redaction)")
	fs.StringVar(&opts.Retriever, "retriever", "", "default retriever `NAME` (default: the everyday default for what the database holds)")
	fs.StringVar(&opts.Tokenizer, "tokenizer", "", "BM25 `TOKENIZER` (default: the everyday default)")
	fs.StringVar(&opts.EmbedModel, "embed-model", "", "embedding `MODEL` of dense retrievers (default: the only one stored)")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	httpOpts := mcpserver.HTTPOptions{IdleTimeout: idle}
	if idle == 0 {
		httpOpts.IdleTimeout = -1
	}
	if httpAddr != "" {
		if err := checkLoopback(httpAddr); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	if tokenFile != "" {
		if httpAddr == "" {
			return fmt.Errorf("%w: --token-file goes with --http; on stdio the client starts the server itself", errUsage)
		}
		token, err := mcpserver.ReadToken(tokenFile)
		if err != nil {
			return fmt.Errorf("%w: --token-file %v", errUsage, err)
		}
		httpOpts.Token = token
	}
	redactor, err := red.redactor()
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	st, err := openReadOnlyStore(db)
	if err != nil {
		return err
	}
	defer st.Close()
	cfg := mcpserver.Config{Store: st, Options: opts, Redactor: redactor, Version: buildVersion()}
	for _, s := range strings.Split(sources, ",") {
		if s = strings.TrimSpace(s); s != "" {
			cfg.Sources = append(cfg.Sources, s)
		}
	}
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := f.Chmod(0o600); err != nil {
			return err
		}
		cfg.CallLog = f
	}
	server, err := mcpserver.New(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	redaction := redactor.Describe()
	if red.redactNames == "" && slices.Contains(strings.Split(red.redactKinds, ","), "all") {
		redaction += "; names are not masked without --redact-names FILE"
	}
	if httpAddr == "" {
		fmt.Fprintf(env.stderr, "linemem mcp: serving %s on stdio (redaction: %s)\n", db, redaction)
		err := server.Run(ctx, &mcpserver.StdioTransport{})
		if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
			return nil
		}
		return err
	}
	return serveMCPHTTP(ctx, env, server, httpOpts, httpAddr, db, redaction)
}

func serveMCPHTTP(ctx context.Context, env *environment, server *mcp.Server, opts mcpserver.HTTPOptions, addr, db, redaction string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(mcpPath, mcpserver.HTTPHandler(ctx, server, opts))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	access := "no token"
	if opts.Token != "" {
		access = "bearer token required"
	}
	fmt.Fprintf(env.stderr, "linemem mcp: serving %s at http://%s%s (redaction: %s; %s); Ctrl-C stops\n", db, ln.Addr(), mcpPath, redaction, access)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(shutdown)
	}
}

// checkLoopback accepts HOST:PORT whose host is a loopback address or
// "localhost": the server must not listen on a network others can reach,
// token or not (the token travels in clear over plain HTTP).
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %s: want HOST:PORT, e.g. 127.0.0.1:8765", addr)
	}
	if mcpserver.IsLoopbackHost(host) {
		return nil
	}
	return fmt.Errorf("--http %s: the server listens on loopback only (127.0.0.1, ::1 or localhost)", addr)
}

// buildVersion is the module version the binary was built from, or "devel".
func buildVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}
