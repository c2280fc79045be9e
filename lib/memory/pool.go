package memory

import (
	"sync"

	"github.com/linemem/linemem/lib/store"
)

// Pool keeps the memories opened over one database, one per retriever name,
// for a long-running front end (the web app, the MCP server). Every Get
// reads the database's content key (store.ContentKey over chunks, summaries
// and vectors: four single-row reads); when another process has written
// since the memories were opened (an ingest, summaries, vectors), they are
// all dropped and reopened on use, so every caller sees the chats as they
// are.
//
// Concurrent first uses of one retriever open it once: the later callers
// wait for the first and share its memory, or its error. An error is not
// kept: the next Get tries again. Pool is safe for concurrent use.
type Pool struct {
	st   *store.Store
	open func(retriever string) (*Memory, error)

	mu      sync.Mutex
	key     string                // the content key the entries were opened under
	entries map[string]*poolEntry // by retriever name as asked; "" = the default
}

type poolEntry struct {
	done chan struct{} // closed when m and err are set
	m    *Memory
	err  error
}

// poolContent are the kinds of content a memory is built from; a write to
// any of them changes the key the Pool compares.
var poolContent = []string{store.ContentChunks, store.ContentSummaries, store.ContentVectors}

// NewPool returns an empty pool over st. open opens the memory of a
// retriever name ("" = its default); nil means Open(st, Options{Retriever:
// name}).
func NewPool(st *store.Store, open func(retriever string) (*Memory, error)) *Pool {
	if open == nil {
		open = func(name string) (*Memory, error) { return Open(st, Options{Retriever: name}) }
	}
	return &Pool{st: st, open: open, entries: map[string]*poolEntry{}}
}

// Get returns the memory searching with retriever as the database is now.
func (p *Pool) Get(retriever string) (*Memory, error) {
	key, err := p.st.ContentKey(poolContent...)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if key != p.key {
		p.entries = map[string]*poolEntry{}
		p.key = key
	}
	e, ok := p.entries[retriever]
	if ok {
		p.mu.Unlock()
		<-e.done
		return e.m, e.err
	}
	e = &poolEntry{done: make(chan struct{})}
	p.entries[retriever] = e
	p.mu.Unlock()

	e.m, e.err = p.open(retriever)
	close(e.done)
	if e.err != nil {
		p.mu.Lock()
		if p.entries[retriever] == e {
			delete(p.entries, retriever)
		}
		p.mu.Unlock()
	}
	return e.m, e.err
}
