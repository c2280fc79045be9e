package loopback_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/loopback"
)

func TestHostAllowed(t *testing.T) {
	allowed := []string{"notes.lan"}
	cases := []struct {
		host string
		want bool
	}{
		{"localhost", true},
		{"LOCALHOST:8080", true},
		{"127.0.0.1:80", true},
		{"127.9.9.9", true},
		{"[::1]:8080", true},
		{"::1", true},
		{"Notes.LAN:8080", true},
		{"evil.example", false},
		{"localhost.evil.example:80", false},
		{"0.0.0.0:80", false},
		{"", false},
	}
	for _, c := range cases {
		if got := loopback.HostAllowed(c.host, allowed); got != c.want {
			t.Errorf("HostAllowed(%q) = %v, want %v", c.host, got, c.want)
		}
	}
}

func TestOwnLoopbackOrigin(t *testing.T) {
	cases := []struct {
		origin, host string
		want         bool
	}{
		{"http://127.0.0.1:8765", "127.0.0.1:8765", true},
		{"http://LOCALHOST:8765", "localhost:8765", true},
		{"https://127.0.0.1:8765", "127.0.0.1:8765", false},
		{"http://127.0.0.1:1", "127.0.0.1:8765", false},
		{"http://evil.example:80", "evil.example:80", false},
		{"http://127.0.0.1:8765/page", "127.0.0.1:8765", false},
		{"null", "127.0.0.1:8765", false},
	}
	for _, c := range cases {
		if got := loopback.OwnLoopbackOrigin(c.origin, c.host); got != c.want {
			t.Errorf("OwnLoopbackOrigin(%q, %q) = %v, want %v", c.origin, c.host, got, c.want)
		}
	}
}

func TestCrossSite(t *testing.T) {
	cases := []struct {
		site, origin string
		refused      bool
	}{
		{"", "", false},
		{"same-origin", "http://127.0.0.1:8080", false},
		{"none", "", false},
		{"cross-site", "", true},
		{"same-site", "", true},
		{"", "http://127.0.0.1:8080", false},
		{"", "http://evil.example", true},
		{"", "null", true},
	}
	for _, c := range cases {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/api/label", nil)
		if c.site != "" {
			r.Header.Set("Sec-Fetch-Site", c.site)
		}
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if got := loopback.CrossSite(r) != nil; got != c.refused {
			t.Errorf("Sec-Fetch-Site %q, Origin %q: refused %v, want %v", c.site, c.origin, got, c.refused)
		}
	}
}

// TestHostRefusedNamesTheAllowedHostsOnly: the refusal quotes the refused
// host and names the loopback hosts (and the flag) as the ones served.
func TestHostRefusedNamesTheAllowedHostsOnly(t *testing.T) {
	msg := loopback.HostRefused("evil.example:80", "serve --allowed-host")
	for _, want := range []string{`"evil.example:80" is not`, "localhost, 127.0.0.1 or [::1]", "serve --allowed-host"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
}

func ExampleHostAllowed() {
	fmt.Println(loopback.HostAllowed("127.0.0.1:8080", nil), loopback.HostAllowed("evil.example:8080", nil))
	// Output: true false
}
