package provider

import (
	"errors"
	"net"
	"syscall"
)

// Unreachable reports whether err says that no connection could be made at
// all: connection refused, host or network unreachable, or a host name that
// does not resolve. Such a failure repeats at once, so retrying the same
// request with backoff only adds waiting.
func Unreachable(err error) bool {
	var dns *net.DNSError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) ||
		errors.Is(err, syscall.ENETUNREACH) || errors.As(err, &dns) && !dns.IsTemporary
}

// IsUnreachable reports whether err is, or wraps, a CallError whose endpoint
// could not be reached.
func IsUnreachable(err error) bool {
	var ce *CallError
	return errors.As(err, &ce) && ce.Unreachable
}
