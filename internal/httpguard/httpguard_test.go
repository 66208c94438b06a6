package httpguard

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

func TestIdentityIsMoreThanTheUserName(t *testing.T) {
	owner := &auth.TokenInfo{UserID: "ada", Scopes: []string{"owner", "read"}}
	same := &auth.TokenInfo{UserID: "ada", Scopes: []string{"read", "owner"}}
	viewer := &auth.TokenInfo{UserID: "ada", Scopes: []string{"viewer"}}
	extra := &auth.TokenInfo{UserID: "ada", Scopes: []string{"owner", "read"}, Extra: map[string]any{"role": "viewer"}}
	id := func(info *auth.TokenInfo) string {
		k, err := Identity(info)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	if id(owner) != id(same) {
		t.Fatal("scope order changed the identity")
	}
	if id(owner) == id(viewer) || id(owner) == id(extra) {
		t.Fatal("tokens with one user name and different claims share an identity")
	}
}

func TestOrigins(t *testing.T) {
	o := NewOrigins([]string{"https://app.example/"})
	cases := []struct {
		origin, host string
		ok           bool
	}{
		{"", "127.0.0.1:80", true},
		{"https://app.example", "127.0.0.1:80", true},
		{"https://APP.example", "127.0.0.1:80", true},
		{"https://evil.example", "127.0.0.1:80", false},
		{"http://127.0.0.1:80", "127.0.0.1:80", true}, // the endpoint's own page
		{"http://evil.example", "evil.example", false},
	}
	for _, tc := range cases {
		r := httptest.NewRequest("POST", "http://"+tc.host+"/", nil)
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		if got := o.Allowed(r); got != tc.ok {
			t.Errorf("origin %q host %q: %v, want %v", tc.origin, tc.host, got, tc.ok)
		}
	}
}

func TestRebinding(t *testing.T) {
	at := func(local, host string) *http.Request {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		addr, _ := net.ResolveTCPAddr("tcp", local)
		return r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, addr))
	}
	if !Rebinding(at("127.0.0.1:8080", "evil.example:8080")) {
		t.Fatal("a foreign name on loopback was not flagged")
	}
	for _, host := range []string{"127.0.0.1:8080", "localhost:8080", "[::1]:8080"} {
		if Rebinding(at("127.0.0.1:8080", host)) {
			t.Fatalf("%s flagged", host)
		}
	}
	if Rebinding(at("10.0.0.1:8080", "app.example")) {
		t.Fatal("a non-loopback listener was flagged")
	}
}

func TestBearer(t *testing.T) {
	verify := func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
		switch tok {
		case "good":
			return &auth.TokenInfo{UserID: "ada"}, nil
		case "anon":
			return &auth.TokenInfo{}, nil
		case "old":
			return &auth.TokenInfo{UserID: "ada", Expiration: time.Now().Add(-time.Minute)}, nil
		case "broken":
			return nil, errors.New("directory down")
		}
		return nil, auth.ErrInvalidToken
	}
	for _, tc := range []struct {
		header string
		ok     bool
		unauth bool
	}{
		{"Bearer good", true, false},
		{"bearer good", true, false},
		{"", false, true},
		{"Basic Zm9v", false, true},
		{"Bearer nope", false, true},
		{"Bearer anon", false, true},
		{"Bearer old", false, true},
		{"Bearer broken", false, false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		if tc.header != "" {
			r.Header.Set("Authorization", tc.header)
		}
		info, err := Bearer(context.Background(), verify, r)
		if (err == nil) != tc.ok || (err != nil && Unauthenticated(err) != tc.unauth) {
			t.Fatalf("%q: %v, %v", tc.header, info, err)
		}
	}
}

func TestReadBody(t *testing.T) {
	post := func(body string, chunked bool) *http.Request {
		r := httptest.NewRequest("POST", "/", strings.NewReader(body))
		if chunked {
			r.ContentLength = -1
			r.TransferEncoding = []string{"chunked"}
		}
		return r
	}
	for _, chunked := range []bool{false, true} {
		if b, err := ReadBody(httptest.NewRecorder(), post("12345678", chunked), 8); err != nil || string(b) != "12345678" {
			t.Errorf("chunked %v, a body at the bound: %q %v", chunked, b, err)
		}
		if _, err := ReadBody(httptest.NewRecorder(), post("123456789", chunked), 8); !TooLarge(err) {
			t.Errorf("chunked %v, a body one byte over the bound: %v, want too large", chunked, err)
		}
	}
	// A declared length over the bound is refused before a byte is read.
	r := post("123456789", false)
	if _, err := ReadBody(httptest.NewRecorder(), r, 8); !TooLarge(err) {
		t.Fatalf("declared over-bound length: %v", err)
	}
	if rest, _ := io.ReadAll(r.Body); string(rest) != "123456789" {
		t.Errorf("a declared over-bound body was read: %q left", rest)
	}
	if b, err := ReadBody(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil), 8); err != nil || len(b) != 0 {
		t.Errorf("no body: %q %v", b, err)
	}
	broken := post("", true)
	broken.Body = io.NopCloser(iotest.ErrReader(errors.New("connection reset")))
	if _, err := ReadBody(httptest.NewRecorder(), broken, 8); err == nil || TooLarge(err) {
		t.Errorf("a broken body: %v, want an error that is not too large", err)
	}
}

// The one reading of a body-bound option: positive is the bound, zero and
// negative the default; never "no bound" and never a bound below zero,
// which would refuse every body.
func TestBodyLimit(t *testing.T) {
	for _, c := range []struct{ v, want int64 }{
		{0, DefaultMaxBodyBytes}, {-1, DefaultMaxBodyBytes}, {-1 << 40, DefaultMaxBodyBytes}, {1, 1}, {2048, 2048},
	} {
		if got := BodyLimit(c.v); got != c.want {
			t.Errorf("BodyLimit(%d) = %d, want %d", c.v, got, c.want)
		}
	}
}
