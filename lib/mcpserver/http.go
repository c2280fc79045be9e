package mcpserver

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultIdleTimeout is how long an HTTP session may go without a request
// before the server closes it and frees what it holds.
const DefaultIdleTimeout = 10 * time.Minute

// HTTPOptions configures HTTPHandler.
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry
	// ("Authorization: Bearer TOKEN"); a request without it, or with another,
	// is answered 401.
	Token string
	// IdleTimeout closes a session that has had no request for this long;
	// 0 selects DefaultIdleTimeout, a negative value keeps sessions until
	// the client ends them.
	IdleTimeout time.Duration
}

// HTTPHandler serves srv over the streamable HTTP transport, guarded as the
// MCP transport specification asks of a local server:
//
//   - Origin: a request without one (a non-browser client) is served, and so
//     is one whose Origin is this server itself — scheme http, host and
//     port equal to the request's Host, the host a loopback name
//     (localhost, 127.0.0.0/8, ::1). Any other Origin, a page of another site
//     reaching the server through the user's browser or a DNS-rebound name,
//     is answered 403 before anything else is read.
//   - Token: with opts.Token, a request without "Authorization: Bearer
//     TOKEN" is answered 401 (the SDK's auth.RequireBearerToken); the token
//     is compared in constant time.
//   - Sessions idle for opts.IdleTimeout are closed, and the memory they
//     held is handed back to the system (releaseClosed) until ctx is done.
//
// The SDK also refuses (403) a request that reaches a loopback address with
// a Host header that is not a loopback name.
func HTTPHandler(ctx context.Context, srv *mcp.Server, opts HTTPOptions) http.Handler {
	idle := opts.IdleTimeout
	switch {
	case idle == 0:
		idle = DefaultIdleTimeout
	case idle < 0:
		idle = 0
	}
	if idle > 0 {
		go releaseClosed(ctx, srv, min(max(idle/4, time.Second), time.Minute))
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{SessionTimeout: idle})
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

// releaseClosed checks every period how many sessions srv has and, when
// there are fewer than at the last check, collects garbage and returns the
// freed memory to the system (debug.FreeOSMemory). Without it, memory freed
// by sessions closed while the server is otherwise idle stays resident: the
// runtime collects only when it allocates, or every two minutes, and
// returns freed pages gradually.
func releaseClosed(ctx context.Context, srv *mcp.Server, period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	count := func() (n int) {
		for range srv.Sessions() {
			n++
		}
		return n
	}
	last := count()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n := count()
		if n < last {
			debug.FreeOSMemory()
		}
		last = n
	}
}

// sameOrigin refuses with 403 a request whose Origin header is set and is
// not the server's own loopback origin (see HTTPHandler).
func sameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && !ownLoopbackOrigin(origin, r.Host) {
			http.Error(w, fmt.Sprintf("origin %q may not use this server: only a request without Origin, or from http://%s itself, is served", cut(origin, 80), r.Host), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ownLoopbackOrigin reports whether origin is http://host where host
// equals the request's Host and names a loopback address.
func ownLoopbackOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || u.Path != "" || u.User != nil || !strings.EqualFold(u.Host, host) {
		return false
	}
	return IsLoopbackHost(u.Hostname())
}

// IsLoopbackHost reports whether host is "localhost" or a loopback IP
// address (127.0.0.0/8, ::1).
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ReadToken reads a bearer token from file: its content with surrounding
// white space removed. An empty token, or one with white space or control
// characters inside, is an error naming the file.
func ReadToken(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	token := strings.TrimSpace(string(b))
	switch {
	case token == "":
		return "", fmt.Errorf("%s: the token file is empty; write one line of at least 16 random characters, e.g. `openssl rand -hex 32 > %s`", file, file)
	case strings.ContainsFunc(token, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return "", errors.New(file + ": the token holds white space or control characters; write it on one line")
	case len(token) < 16:
		return "", fmt.Errorf("%s: the token is %d characters; use at least 16 random ones", file, len(token))
	}
	return token, nil
}
