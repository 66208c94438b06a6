//go:build !(js && wasm)

package webmcp

import (
	"net"
	"net/url"
	"strings"
	"testing"
)

// referenceCheckOrigin is checkOrigin as it was written with url.Parse
// and net.ParseIP, which the page no longer links. checkOrigin must give
// its verdict on every origin whose host a browser would take: the two
// differ only where url.Parse and a browser disagree about a host: one
// with "<", "%" or a second ":" in it, which url.Parse takes and
// checkOrigin refuses, and one with "{", the other way round.
func referenceCheckOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	switch u.Scheme {
	case "https", "wss":
		return true
	case "http", "ws":
		if h := u.Hostname(); h == "localhost" || strings.HasSuffix(h, ".localhost") {
			return true
		} else if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
			return true
		}
	}
	return false
}

var originCases = []string{
	"https://a.example", "https://a.example:8443", "https://a.example/path?q#f", "HTTPS://A.example",
	"http://a.example", "http://localhost", "http://localhost:3000", "http://app.localhost", "http://LOCALHOST",
	"http://127.0.0.1", "http://127.255.1.2:80", "http://127.0.0.01", "http://127.0.0", "http://127.0.0.256",
	"http://128.0.0.1", "http://[::1]", "http://[::1]:8080", "http://[0:0:0:0:0:0:0:1]", "http://[0::1]",
	"http://[::ffff:127.0.0.1]", "http://[::ffff:7f00:1]", "http://[::2]", "http://[::1", "http://::1",
	"http://[1:2:3:4:5:6:7:8]", "http://[1:2:3:4:5:6:7:8:9]", "http://[::1::]", "http://[:::1]", "http://[12345::1]",
	"http://user:pw@127.0.0.1", "http://127.0.0.1@a.example", "ws://localhost", "wss://a.example",
	"ftp://a.example", "agent.example", "", "https://", "http://", "://a.example", "1http://a.example",
	"https://a.example:port", "https://a b.example", "https://a<b", "h-t.t+p://x", "http://localhost:",
	"http://[::1]x", "https://[::1]:", "http://0x7f.0.0.1", "http://[::127.0.0.1]", "http://[1::2::3]",
}

func TestCheckOriginMatchesURLParse(t *testing.T) {
	for _, origin := range originCases {
		compareOrigin(t, origin)
	}
}

func compareOrigin(t *testing.T, origin string) {
	t.Helper()
	// Only the scheme and host decide, so the reference reads only
	// them: url.Parse also refuses a path or user information a browser
	// takes ("/%", "user name@").
	authority := origin
	if scheme, rest, ok := strings.Cut(origin, "://"); ok {
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			rest = rest[:i]
		}
		if i := strings.LastIndexByte(rest, '@'); i >= 0 {
			rest = rest[i+1:]
		}
		authority = scheme + "://" + rest
	}
	got, want := checkOrigin(origin) == nil, referenceCheckOrigin(authority)
	if !got && want && browserRefusesHost(authority) {
		return
	}
	if _, err := url.Parse(authority); got && err != nil && strings.Contains(err.Error(), "in host name") {
		return // a character url.Parse refuses in a host and a browser takes ("{")
	}
	if got != want {
		t.Fatalf("checkOrigin(%q) accepts=%v, url.Parse and net.ParseIP say %v", origin, got, want)
	}
}

func FuzzCheckOriginMatchesURLParse(f *testing.F) {
	for _, origin := range originCases {
		f.Add(origin)
	}
	f.Fuzz(compareOrigin)
}

// browserRefusesHost reports whether url.Parse finds a host a browser
// would refuse: one holding a forbidden host code point or a "%", or a
// port that is not digits.
func browserRefusesHost(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	h := u.Host
	if strings.HasPrefix(h, "[") {
		h = h[strings.LastIndexByte(h, ']')+1:]
	} else if i := strings.IndexByte(h, ':'); i >= 0 {
		if strings.ContainsFunc(h[:i], forbiddenInHost) {
			return true
		}
		h = h[i:]
	} else {
		return strings.ContainsFunc(h, forbiddenInHost)
	}
	return strings.Trim(strings.TrimPrefix(h, ":"), "0123456789") != ""
}
