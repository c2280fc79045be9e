// Package mcpserver serves a linemem memory to assistants over the Model
// Context Protocol (github.com/modelcontextprotocol/go-sdk): any MCP client —
// a desktop assistant, an IDE agent, a local LLM runner — can search a
// person's LINE history through four tools.
//
//   - search_memory: ranked conversation windows for a question, with the
//     matching messages and a short context around them (lib/memory, with
//     its everyday defaults).
//   - get_messages: the messages of a chunk, or those around a message ID.
//   - list_sources: the chats held, with date ranges and counts.
//   - memory_stats: what the memory holds and what it was built with.
//
// Every result is a plain structure with chunk and message IDs a client can
// pass back to get_messages. Bad arguments (k outside 1..memory.MaxK, an
// unparsable date, an over-long question, an unknown ID) are tool errors the
// model can read and correct; the server keeps running.
//
// Privacy: the server cannot know where its client sends what it returns.
// Config.Redactor is applied to every string returned (message text, sender,
// source label, warnings); Config.Sources confines every tool to the named
// sources, and IDs from other sources are answered as unknown; Config.CallLog
// records which tool was called with which arguments, never returned text.
//
// StdioTransport serves a client on stdin and stdout as the SDK's does, but
// answers every request read before end of input before the session ends,
// so requests piped in from a script are all answered.
//
// Every call sees the database as it is then: a change written by another
// process (`linemem ingest` of a new chat) shows in all four tools at the
// next call, in the same session.
//
// Tool arguments are read by the server itself (args.go), from plain
// "string" and "integer" schema properties, so a generic client that coerces
// command-line values by the schema's type can fill them, and a wrong one is
// answered in the server's own words. HTTPHandler serves the streamable HTTP
// transport with the Origin check, the bearer token and idle sessions' expiry
// a local server needs.
//
// Imports: lib/loopback, lib/memory, lib/store, lib/redact, lib/chat, the MCP SDK (mcp,
// auth, jsonrpc, and its schema package github.com/google/jsonschema-go) and
// the standard library; never cmd/.
package mcpserver

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/redact"
	"github.com/linemem/linemem/lib/store"
)

// Name is the implementation name announced in initialize.
const Name = "linemem"

// Limits of one call. Defaults of omitted arguments live here too.
const (
	DefaultK        = memory.DefaultK // search_memory results when k is omitted
	DefaultAround   = 5               // get_messages before/after when omitted
	MaxAround       = 100             // largest before/after
	MaxExcerpt      = 8               // messages shown per search result
	MaxMessageRunes = 600             // a message longer than this is cut in search results (get_messages returns it whole)
)

// Instructions is what the server tells a client in initialize.
const Instructions = `This server is a person's own LINE chat history (their private conversations with friends, family and groups), searchable as memory.

Use search_memory when the user asks about something that was said, planned, promised or shared in their chats ("when is the deadline for the poster?", "what did Hanako recommend?"). Each result is a conversation window (chunk) with its date range, its chat (the chat's title: the friend's or the group's name) and the export's file name (source), the messages that match the question and a few around them. Cite what you use by chunk_id or message id. To read a whole window, call get_messages with its chunk_id; to read around one message, call get_messages with its message_id and before/after counts. list_sources lists the chats and their date ranges (use a title or file name as search_memory's source filter); memory_stats says what the memory holds.

Who is who: the user exported these chats. Messages with the sender 自分 (Japanese export) or Me (English export) are the user's own: report them as what the user said ("you told Hanako…"). Every other sender is another person, by their LINE display name; in a chat exported under the user's own display name instead, that is the one sender who appears in every chat.

Privacy: these are the user's private messages and other people's words. This server cannot know where its answers go once returned; quote only what the user's request needs, and do not pass message text to other tools or services unless the user asks.`

// Config is what New needs.
type Config struct {
	Store   *store.Store
	Options memory.Options // retriever, tokenizer, embedding model and query vectors of the default search
	// Redactor masks identifiers in every string returned; nil returns text as stored.
	Redactor *redact.Redactor
	// Sources confines every tool to these source names; empty allows all.
	// A name not in the store is an error from New.
	Sources []string
	// CallLog receives one JSON line per tool call (time, tool, arguments,
	// outcome, duration), never returned text; nil logs nothing.
	CallLog io.Writer
	Version string // announced in initialize
}

// Server holds the memories behind the tools.
type Server struct {
	cfg     Config
	allowed map[string]bool // nil: every source
	log     *callLog

	memories *memory.Pool // by requested retriever name; "" = the default
}

// New opens the memory of cfg.Store with its default retriever and returns
// an MCP server with the four tools. It fails when the store holds no chunks
// or cfg.Sources names a source the store does not hold.
func New(cfg Config) (*mcp.Server, error) {
	s, err := newServer(cfg)
	if err != nil {
		return nil, err
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "linemem: LINE chat memory", Version: cfg.Version}, &mcp.ServerOptions{
		Instructions: Instructions,
		Capabilities: &mcp.ServerCapabilities{},
	})
	srv.AddReceivingMiddleware(protocolMiddleware)
	if err := s.addTools(srv); err != nil {
		return nil, err
	}
	return srv, nil
}

func newServer(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("mcpserver: no store")
	}
	s := &Server{cfg: cfg, log: newCallLog(cfg.CallLog)}
	s.memories = memory.NewPool(cfg.Store, func(retriever string) (*memory.Memory, error) {
		opts := cfg.Options
		opts.Retriever = retriever
		return memory.Open(cfg.Store, opts)
	})
	m, err := s.memory("")
	if err != nil {
		return nil, err
	}
	if len(cfg.Sources) > 0 {
		infos, err := m.Sources()
		if err != nil {
			return nil, err
		}
		held := map[string]bool{}
		for _, si := range infos {
			held[si.Name] = true
		}
		s.allowed = map[string]bool{}
		var missing, names []string
		for _, si := range infos {
			names = append(names, si.Name)
		}
		for _, name := range cfg.Sources {
			if !held[name] {
				missing = append(missing, name)
			}
			s.allowed[name] = true
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("%s holds no source named %s; its sources are %s", cfg.Store.Path(), quoteAll(missing), quoteAll(names))
		}
	}
	return s, nil
}

// memory returns the memory searching with retriever as the database is
// now: memory.Pool reopens it when another process has written since (Memory
// keeps its source list, and its retriever's index, from when it was
// opened).
func (s *Server) memory(retriever string) (*memory.Memory, error) { return s.memories.Get(retriever) }

// allows reports whether source may be shown.
func (s *Server) allows(source string) bool { return s.allowed == nil || s.allowed[source] }

// allowedSources lists the permitted sources, sorted; nil when all are.
func (s *Server) allowedSources() []string {
	if s.allowed == nil {
		return nil
	}
	out := make([]string, 0, len(s.allowed))
	for name := range s.allowed {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// red applies the redactor to text.
func (s *Server) red(text string) string {
	out, _ := s.cfg.Redactor.Redact(text)
	return out
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(slices.Compact(q), ", ")
}
