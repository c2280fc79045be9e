package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport speaks MCP as newline-delimited JSON-RPC on stdin and
// stdout, like the SDK's mcp.StdioTransport, but answers every request it
// has read before it reports end of input. The SDK ends a session as soon
// as its input ends and drops the responses still being produced, so
// requests piped in from a shell or a script would go unanswered.
//
// The input is handed to the SDK line by line. At end of input the reader
// waits until the server has written as many responses (messages without
// "method") as it was handed requests (messages with "method" and a non-null
// "id"), then reports io.EOF. The wait also ends when the connection is
// closed, when the context given to Connect is cancelled (Server.Run passes
// its own), or when the server sends a request of its own to the client
// (sampling, roots, a keep-alive ping): the client can no longer answer it,
// and the SDK then fails the call, as it does without the wait.
//
// A line the SDK would end the session on is not handed on (classifyIn): one
// that is not JSON, JSON that is not a JSON-RPC message, and any batch but a
// batch of messages under a protocol before 2025-06-18. It is answered as
// JSON-RPC 2.0 asks, with id null and error -32700 (parse error) or -32600
// (invalid request), the message naming the input line, and the session goes
// on. Blank lines are skipped, and a byte order mark before the first line is
// dropped. The SDK still ends the session on a message longer than
// MaxLineLength; before handing such a line on, and before any batch, the
// reader waits in the same way, so the requests before it are answered
// first. A message spread over several lines, which the stdio transport's
// specification forbids, is taken line by line and each line answered as
// invalid.
//
// An error the SDK answers with code 0, which JSON-RPC does not define (a
// request before initialize), is written with the code the specification
// assigns (fixErrorCode).
//
// Besides what the SDK buffers, the transport holds one line of up to
// MaxLineLength bytes and one read buffer; the rest of a longer line, which
// the SDK refuses, is handed on in pieces as it arrives.
type StdioTransport struct {
	In  io.Reader // nil: os.Stdin; closed with the connection if it is an io.Closer
	Out io.Writer // nil: os.Stdout; never closed
	// MaxLineLength bounds the bytes of one inbound message, as in
	// mcp.IOTransport: 0 selects mcp.DefaultMaxLineLength, a negative value
	// disables the bound.
	MaxLineLength int
}

// Connect implements mcp.Transport. It must be called once.
func (t *StdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	in, out := t.In, t.Out
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	limit := t.MaxLineLength
	if limit == 0 {
		limit = mcp.DefaultMaxLineLength
	}
	tl := &tally{changed: make(chan struct{})}
	w := countingWriter{w: out, tally: tl, mu: new(sync.Mutex)}
	r := &drainReader{r: bufio.NewReader(in), limit: limit, tally: tl, out: w, ctx: ctx, closed: make(chan struct{})}
	if c, ok := in.(io.Closer); ok {
		r.closer = c
	}
	base := &mcp.IOTransport{Reader: r, Writer: w, MaxLineLength: t.MaxLineLength}
	return base.Connect(ctx)
}

// tally counts the messages that decide when the input may end.
type tally struct {
	mu       sync.Mutex
	calls    int           // requests from the client handed to the server
	answered int           // responses the server wrote
	asked    int           // requests the server sent to the client
	replied  int           // responses from the client handed to the server
	changed  chan struct{} // closed and replaced whenever the server writes a counted message
}

func (t *tally) read(calls, replies int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls += calls
	t.replied += replies
}

func (t *tally) wrote(answers, asks int) {
	if answers == 0 && asks == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.answered += answers
	t.asked += asks
	close(t.changed)
	t.changed = make(chan struct{})
}

// settled reports whether every request read has been answered or the
// server awaits an answer from the client; changed is closed on the next
// counted write.
func (t *tally) settled() (ok bool, changed <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.answered >= t.calls || t.asked > t.replied, t.changed
}

// drainReader hands its input on line by line, counting what it hands on.
// Only the SDK's read loop calls Read; Close may come from any goroutine.
type drainReader struct {
	r      *bufio.Reader
	closer io.Closer // nil when the input cannot be closed
	limit  int       // longest message the SDK accepts, in bytes; < 0: no limit
	tally  *tally
	out    countingWriter // where a line not handed on is answered
	ctx    context.Context
	lineNo int // of the current line, from 1
	// protocol is the version the client's initialize request asked for;
	// "" before one is read.
	protocol string

	closeOnce sync.Once
	closed    chan struct{}

	line     []byte // the current line, reused
	pending  []byte // what is left to hand on of the current line
	overflow bool   // the rest of a line longer than limit is being handed on
	err      error  // from the input; returned once pending is empty
}

func (d *drainReader) Read(p []byte) (int, error) {
	for len(d.pending) == 0 {
		if d.err != nil {
			if d.err == io.EOF {
				d.wait()
			}
			return 0, d.err
		}
		d.next()
	}
	n := copy(p, d.pending)
	d.pending = d.pending[n:]
	return n, nil
}

// next reads the next line, or the next piece of an over-long one, into pending.
func (d *drainReader) next() {
	if d.overflow {
		piece, err := d.r.ReadSlice('\n') // valid until the next read, which waits for pending to empty
		d.pending = piece
		d.overflow = err == bufio.ErrBufferFull
		if err != nil && !d.overflow {
			d.err = err
		}
		return
	}
	d.line = d.line[:0]
	d.lineNo++
	for {
		piece, err := d.r.ReadSlice('\n')
		d.line = append(d.line, piece...)
		if err == bufio.ErrBufferFull {
			if d.limit >= 0 && len(d.line) > d.limit+len("\r\n") {
				d.wait()
				d.pending = d.line
				d.overflow = true
				return
			}
			continue
		}
		if err != nil {
			d.err = err
		}
		break
	}
	if d.lineNo == 1 {
		d.line = bytes.TrimPrefix(d.line, []byte("\uFEFF")) // a byte order mark some editors and shells write
	}
	in := classifyIn(d.line, d.protocol)
	if in.errCode != 0 {
		d.tally.read(1, 0)
		d.out.Write(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":%q}}`+"\n",
			in.errCode, fmt.Sprintf("input line %d: %s", d.lineNo, in.errWhat)))
		return
	}
	if in.protocol != "" {
		d.protocol = in.protocol
	}
	if in.batch || d.limit >= 0 && len(bytes.TrimRight(d.line, "\r\n")) > d.limit {
		d.wait()
	}
	d.tally.read(in.calls, in.replies)
	d.pending = d.line
}

// wait blocks until the tally is settled, the reader is closed or the
// context is cancelled.
func (d *drainReader) wait() {
	for {
		ok, changed := d.tally.settled()
		if ok {
			return
		}
		select {
		case <-changed:
		case <-d.closed:
			return
		case <-d.ctx.Done():
			return
		}
	}
}

// Close ends any wait and closes the input if it can be closed.
func (d *drainReader) Close() error {
	var err error
	d.closeOnce.Do(func() {
		close(d.closed)
		if d.closer != nil {
			err = d.closer.Close()
		}
	})
	return err
}

// countingWriter counts the messages the server writes; the SDK writes one
// message or batch, newline included, per Write, and so does the reader
// answering a line it does not hand on, under the same lock.
type countingWriter struct {
	w     io.Writer
	tally *tally
	mu    *sync.Mutex
}

func (c countingWriter) Write(p []byte) (int, error) {
	out := p
	if bytes.Contains(p, []byte(`"code":0`)) {
		out = nil
		for line := range bytes.Lines(p) {
			out = append(out, fixErrorCode(line)...)
		}
	}
	c.mu.Lock()
	_, err := c.w.Write(out)
	c.mu.Unlock()
	n := len(p)
	if err != nil {
		n = 0
	}
	var answers, asks int
	for line := range bytes.Lines(p) {
		a, q := classifyOut(line)
		answers += a
		asks += q
	}
	c.tally.wrote(answers, asks)
	return n, err
}

func (countingWriter) Close() error { return nil }

// envelope is the part of a JSON-RPC message the counts need, keyed exactly
// as the SDK's case-sensitive decoder reads them.
type envelope map[string]json.RawMessage

// kind classifies a message as the SDK's decoder does.
type kind int

const (
	invalid kind = iota
	call         // a request with an ID: it must be answered
	notification
	response
)

func (e envelope) kind() kind {
	var version string
	if json.Unmarshal(e["jsonrpc"], &version) != nil || version != "2.0" {
		return invalid
	}
	hasID := false
	if id, ok := e["id"]; ok {
		switch id[0] {
		case 'n':
		case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			hasID = true
		default:
			return invalid
		}
	}
	if method, ok := e["method"]; ok {
		if method[0] != '"' && method[0] != 'n' { // the SDK reads a null method as ""
			return invalid
		}
		if hasID {
			return call
		}
		return notification
	}
	if !hasID {
		return invalid
	}
	return response
}

// messages splits a line into the envelopes of its message or batch; ok is
// false for blank lines and lines that are neither.
func messages(line []byte) (msgs []envelope, batch, ok bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, false, false
	}
	if line[0] == '[' {
		if json.Unmarshal(line, &msgs) != nil {
			return nil, true, false
		}
		return msgs, true, true
	}
	var one envelope
	if json.Unmarshal(line, &one) != nil {
		return nil, false, false
	}
	return []envelope{one}, false, true
}

// inputLine is what the reader needs to know of one input line.
type inputLine struct {
	calls, replies int    // the client's requests (with an ID) and responses on it
	batch          bool   // a batch handed on to the SDK, which answers it
	protocol       string // the version an initialize request on it asks for
	// errCode and errWhat, when errCode is not 0, answer a line that is not
	// handed on: the SDK would end the session on it.
	errCode int
	errWhat string
}

// batchesRemoved is the MCP protocol version that removed JSON-RPC batches;
// versions are dates, so they compare as strings.
const batchesRemoved = "2025-06-18"

// classifyIn reads an input line once. Answered here, with a JSON-RPC error,
// are a line that is not JSON (-32700); JSON that is neither a message nor a
// batch; an empty batch, a batch with a member that is not a message, and
// any batch when the client asked for protocol 2025-06-18 or later, which
// removed batches from MCP, or has not initialized (-32600). A batch of
// messages under an earlier protocol goes to the SDK, which answers it. A
// blank line is nothing.
func classifyIn(line []byte, protocol string) (in inputLine) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return in
	}
	const (
		notMessage = `not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0" and a "method" or an "id")`
		badMembers = "a batch whose members are not all JSON-RPC 2.0 messages"
	)
	bad := func(code int, what string) inputLine { return inputLine{errCode: code, errWhat: what} }
	msgs, batch, ok := messages(line)
	switch {
	case !ok && !json.Valid(line):
		return bad(-32700, "not JSON")
	case !ok && batch:
		return bad(-32600, badMembers)
	case !ok:
		return bad(-32600, notMessage)
	case batch && len(msgs) == 0:
		return bad(-32600, "an empty batch")
	}
	for _, m := range msgs {
		switch m.kind() {
		case invalid:
			if batch {
				return bad(-32600, badMembers)
			}
			return bad(-32600, notMessage)
		case call:
			in.calls++
			if string(m["method"]) == `"initialize"` {
				var params struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				if json.Unmarshal(m["params"], &params) == nil {
					in.protocol = params.ProtocolVersion
				}
			}
		case response:
			in.replies++
		}
	}
	if batch && (protocol == "" || protocol >= batchesRemoved) {
		return bad(-32600, "a batch: MCP has no JSON-RPC batches from protocol version "+batchesRemoved+" on; send one message per line")
	}
	in.batch = batch
	return in
}

// classifyOut counts the server's responses and requests on an output line.
func classifyOut(line []byte) (answers, asks int) {
	msgs, _, _ := messages(line)
	for _, m := range msgs {
		if m == nil {
			continue
		}
		if _, ok := m["method"]; !ok {
			answers++
		} else if id, ok := m["id"]; ok && id[0] != 'n' {
			asks++
		}
	}
	return answers, asks
}
