// Package loopback is the one access policy of linemem's local servers (the
// web app of `serve` and the HTTP transport of `mcp`): which Host names a
// request may carry, which Origin may send it, and how a bearer token is read
// from its file.
//
// Host. A request is served only when its Host header (port removed, IPv6
// brackets removed, compared case-insensitively) is a loopback name —
// "localhost", an address in 127.0.0.0/8 or ::1 — or one of the names the
// server was started with. Any other Host is a name that resolves to this
// machine without being it: a DNS-rebinding page. HostRefused is the one
// message both servers answer it with (403).
//
// Origin. A browser's cross-site request is refused (403) by Go's
// http.CrossOriginProtection: Sec-Fetch-Site other than "same-origin" or
// "none", or, without it, an Origin whose host differs from the request's
// Host. A request with neither header (curl, an MCP SDK client) passes.
// OwnLoopbackOrigin is the stricter rule of the MCP transport: an Origin, if
// sent, must be http://HOST with HOST the request's own loopback Host.
//
// Token. ReadToken refuses a file others may read (any group or other
// permission bit) with the chmod command that fixes it, as ssh does for a
// private key: the token is the only thing between the server and any
// process of another user on the machine.
//
// Imports: the standard library.
package loopback

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"unicode/utf8"
)

// IsLoopbackHost reports whether host (no port) is "localhost" (any case)
// or a loopback IP address (127.0.0.0/8, ::1, with or without brackets).
func IsLoopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// IsLoopbackAddr reports whether addr (HOST:PORT) binds a loopback address
// only. An empty host (all interfaces) is not loopback.
func IsLoopbackAddr(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("address %q: want HOST:PORT: %w", addr, err)
	}
	return IsLoopbackHost(host), nil
}

// HostAllowed reports whether the Host header hostHeader (with or without a
// port) names a loopback host or one of allowed (compared
// case-insensitively).
func HostAllowed(hostHeader string, allowed []string) bool {
	host := hostHeader
	if h, _, err := net.SplitHostPort(hostHeader); err == nil {
		host = h
	}
	if IsLoopbackHost(host) {
		return true
	}
	host = strings.Trim(host, "[]")
	for _, a := range allowed {
		if strings.EqualFold(host, a) {
			return true
		}
	}
	return false
}

// HostRefused is the 403 message for a request whose Host is not allowed;
// flag, when not empty, is the option that names further hosts.
func HostRefused(hostHeader, flag string) string {
	msg := fmt.Sprintf("host %q is not this server's name: it answers only to localhost, 127.0.0.1 or [::1]", cut(hostHeader, 80))
	if flag != "" {
		msg += " or a host named by " + flag
	}
	return msg + " (a page of another site reaching it through a DNS name is refused)"
}

// OriginRefused is the 403 message for a request whose Origin may not use
// the server.
func OriginRefused(origin string) string {
	return fmt.Sprintf("origin %q may not use this server: only a request without Origin, or from this server's own loopback address, is served", cut(origin, 80))
}

// CrossSite reports a browser's cross-site request by Go's
// http.CrossOriginProtection (see the package doc), nil when r may pass.
func CrossSite(r *http.Request) error {
	return http.NewCrossOriginProtection().Check(r)
}

// OwnLoopbackOrigin reports whether origin is http://HOST[:PORT] with
// HOST[:PORT] equal to the request's Host (case-insensitively) and HOST a
// loopback name; a path, user info or https is not.
func OwnLoopbackOrigin(origin, hostHeader string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || u.Path != "" || u.User != nil || !strings.EqualFold(u.Host, hostHeader) {
		return false
	}
	return IsLoopbackHost(u.Hostname())
}

// MinTokenChars is the shortest token ReadToken accepts.
const MinTokenChars = 16

// ReadToken reads a bearer token from file: its content with surrounding
// white space removed. A file that its group or others may read or write, an
// empty token, one shorter than MinTokenChars or with white space or control
// characters inside is an error naming the file (the first says which chmod
// to run).
func ReadToken(file string) (string, error) {
	fi, err := os.Stat(file)
	if err != nil {
		return "", err
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("%s: the token file has mode %04o, so other users may read it; run `chmod 600 %s`", file, perm, file)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	token := strings.TrimSpace(string(b))
	switch {
	case token == "":
		return "", fmt.Errorf("%s: the token file is empty; write one line of at least %d random characters, e.g. `(umask 077; openssl rand -hex 32 > %s)`", file, MinTokenChars, file)
	case strings.ContainsFunc(token, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return "", errors.New(file + ": the token holds white space or control characters; write it on one line")
	case len(token) < MinTokenChars:
		return "", fmt.Errorf("%s: the token is %d characters; use at least %d random ones", file, len(token), MinTokenChars)
	}
	return token, nil
}

// cut shortens s to at most n runes for a message, marking the cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
