package mcpserver

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/loopback"
)

// DefaultIdleTimeout is how long an HTTP session may go without a request
// in progress (an open event stream is one) before the server closes it and
// frees what it holds.
const DefaultIdleTimeout = 10 * time.Minute

// HTTPOptions configures HTTPHandler.
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry
	// ("Authorization: Bearer TOKEN"); a request without it, or with another,
	// is answered 401.
	Token string
	// IdleTimeout closes a session that has had no request in progress for
	// this long; 0 selects DefaultIdleTimeout, a negative value keeps
	// sessions until the client ends them.
	IdleTimeout time.Duration
}

// HTTPHandler serves srv over the streamable HTTP transport, guarded as the
// MCP transport specification asks of a local server (lib/loopback):
//
//   - Host: a request whose Host is not a loopback name is answered 403
//     with loopback.HostRefused (a DNS-rebound name).
//   - Origin: a request without one (a non-browser client) is served, and so
//     is one whose Origin is this server itself (loopback.OwnLoopbackOrigin).
//     Any other Origin, a page of another site reaching the server through
//     the user's browser, is answered 403 before anything else is read.
//   - Token: with opts.Token, a request without "Authorization: Bearer
//     TOKEN" is answered 401 (the SDK's auth.RequireBearerToken); the token
//     is compared in constant time.
//   - Idle sessions: a session is idle while none of its requests is in
//     progress. A client's open GET event stream is a request in progress,
//     and each keep-alive ping is a request, so a connected client's
//     session lives as long as the client. A session idle for
//     opts.IdleTimeout is closed, and the memory it held is handed back to
//     the system, until ctx is done; a later request naming it is answered
//     404 with a JSON-RPC error saying to initialize a new session (what the
//     transport specification asks a client to do on 404).
func HTTPHandler(ctx context.Context, srv *mcp.Server, opts HTTPOptions) http.Handler {
	idle := opts.IdleTimeout
	switch {
	case idle == 0:
		idle = DefaultIdleTimeout
	case idle < 0:
		idle = 0
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{})
	if idle > 0 {
		t := newIdleSessions(idle)
		go t.reap(ctx, srv, min(max(idle/4, 10*time.Millisecond), time.Minute))
		h = t.track(h)
	}
	if opts.Token != "" {
		want := []byte(opts.Token)
		verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			if subtle.ConstantTimeCompare([]byte(token), want) != 1 {
				return nil, fmt.Errorf("%w: not this server's token", auth.ErrInvalidToken)
			}
			return &auth.TokenInfo{}, nil
		}
		h = auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
	}
	return sameOrigin(h)
}

// sessionHeader is the header of the streamable HTTP transport that names
// a session.
const sessionHeader = "Mcp-Session-Id"

// idleSessions tracks, per session ID, the requests in progress and when the
// last one ended; it closes sessions idle for longer than timeout and
// remembers the IDs it closed, to tell their clients why.
type idleSessions struct {
	timeout time.Duration
	now     func() time.Time

	mu      sync.Mutex
	active  map[string]*sessionActivity
	expired map[string]time.Time // closed for idleness → when
}

type sessionActivity struct {
	inFlight int
	last     time.Time // the end of the last request, or when first seen
}

func newIdleSessions(timeout time.Duration) *idleSessions {
	return &idleSessions{timeout: timeout, now: time.Now, active: map[string]*sessionActivity{}, expired: map[string]time.Time{}}
}

// track counts each request naming a session as in progress until it ends;
// a request naming a session closed for idleness is answered 404 with how
// to recover.
func (t *idleSessions) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(sessionHeader)
		if id == "" {
			next.ServeHTTP(w, r)
			return
		}
		t.mu.Lock()
		_, gone := t.expired[id]
		a := t.active[id]
		if a == nil && !gone {
			a = &sessionActivity{}
			t.active[id] = a
		}
		if a != nil {
			a.inFlight++
		}
		t.mu.Unlock()
		if gone {
			sessionExpired(w, t.timeout)
			return
		}
		defer func() {
			t.mu.Lock()
			a.inFlight--
			a.last = t.now()
			t.mu.Unlock()
		}()
		next.ServeHTTP(w, r)
	})
}

// sessionExpired answers a request naming a session closed for idleness:
// 404 (the transport specification's "start a new session") with a
// JSON-RPC error saying so.
func sessionExpired(w http.ResponseWriter, timeout time.Duration) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{
		"code": -32001,
		"message": fmt.Sprintf("session expired: it had no request and no open event stream for %v (linemem mcp --idle-timeout); "+
			"send initialize again without Mcp-Session-Id to start a new session, or reconnect the client", timeout),
	}})
}

// reap checks every period srv's sessions: one whose requests all ended more
// than timeout ago is closed and its ID remembered (for a day); when
// sessions were closed since the last check, garbage is collected and the
// freed memory returned to the system (debug.FreeOSMemory: without it,
// memory freed while the server is otherwise idle stays resident). A
// session not seen in a request yet counts as active from the first check
// that finds it.
func (t *idleSessions) reap(ctx context.Context, srv *mcp.Server, period time.Duration) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	last := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := t.now()
		open := map[string]bool{}
		var idle []*mcp.ServerSession
		t.mu.Lock()
		for ss := range srv.Sessions() {
			id := ss.ID()
			open[id] = true
			a := t.active[id]
			switch {
			case a == nil:
				t.active[id] = &sessionActivity{last: now}
			case a.inFlight == 0 && now.Sub(a.last) > t.timeout:
				idle = append(idle, ss)
				t.expired[id] = now
				delete(t.active, id)
			}
		}
		for id, a := range t.active {
			if !open[id] && a.inFlight == 0 {
				delete(t.active, id)
			}
		}
		for id, at := range t.expired {
			if now.Sub(at) > 24*time.Hour {
				delete(t.expired, id)
			}
		}
		t.mu.Unlock()
		for _, ss := range idle {
			ss.Close()
		}
		n := len(open) - len(idle)
		if n < last || len(idle) > 0 {
			debug.FreeOSMemory()
		}
		last = n
	}
}

// sameOrigin refuses with 403 a request whose Host is not a loopback name,
// or whose Origin header is set and is not the server's own loopback origin
// (see HTTPHandler).
func sameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopback.HostAllowed(r.Host, nil) {
			http.Error(w, loopback.HostRefused(r.Host, ""), http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !loopback.OwnLoopbackOrigin(origin, r.Host) {
			http.Error(w, loopback.OriginRefused(origin), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// IsLoopbackHost reports whether host is "localhost" or a loopback IP
// address (loopback.IsLoopbackHost).
func IsLoopbackHost(host string) bool { return loopback.IsLoopbackHost(host) }

// ReadToken reads a bearer token from file (loopback.ReadToken): a file
// others may read is refused with the chmod to run.
func ReadToken(file string) (string, error) { return loopback.ReadToken(file) }
