package main

import (
	"net"
	"testing"
)

// TestBaseURL: the first line of `serve` is a URL a browser can open, also
// when --public binds a wildcard address.
func TestBaseURL(t *testing.T) {
	tests := []struct {
		addr *net.TCPAddr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "http://127.0.0.1:8080/"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 41673}, "http://[::1]:41673/"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 41673}, "http://127.0.0.1:41673/"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 9}, "http://127.0.0.1:9/"},
		{&net.TCPAddr{IP: net.IPv4(192, 168, 1, 2), Port: 80}, "http://192.168.1.2:80/"},
	}
	for _, tt := range tests {
		if got := baseURL(tt.addr); got != tt.want {
			t.Errorf("baseURL(%v) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}
