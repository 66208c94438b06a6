package httpguardtest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// PostChunked sends body to rawURL as a POST written by hand on its own
// connection, with Transfer-Encoding: chunked and no Content-Length, the
// way a streaming client sends a body whose length it does not know. The
// body goes in chunks of at most 1 KiB. header adds request headers (Host
// is always the URL's). It returns the response's status, headers and
// body, and fails t when the exchange does not finish within ten seconds.
func PostChunked(t testing.TB, rawURL string, header map[string]string, body string) (int, http.Header, string) {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))

	var b strings.Builder
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: %s\r\nTransfer-Encoding: chunked\r\n", u.RequestURI(), u.Host)
	for k, v := range header {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	b.WriteString("\r\n")
	for rest := body; rest != ""; {
		n := min(len(rest), 1024)
		fmt.Fprintf(&b, "%x\r\n%s\r\n", n, rest[:n])
		rest = rest[n:]
	}
	b.WriteString("0\r\n\r\n")
	if _, err := io.WriteString(conn, b.String()); err != nil {
		t.Fatalf("writing the chunked request: %v", err)
	}

	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: http.MethodPost})
	if err != nil {
		t.Fatalf("reading the response to a chunked request: %v", err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the response body: %v", err)
	}
	return resp.StatusCode, resp.Header, string(got)
}
