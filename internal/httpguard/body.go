package httpguard

import (
	"errors"
	"io"
	"net/http"
)

// DefaultMaxBodyBytes is the one default bound on a request body on
// every foldagent HTTP surface (mcpagent, a2aagent, nativeagent): a
// mebibyte. Requests to a foldagent application are small; it is
// generous.
const DefaultMaxBodyBytes int64 = 1 << 20

// BodyLimit is the one reading of a surface's MaxRequestBodyBytes option:
// v when positive, DefaultMaxBodyBytes when zero or negative. A body is
// always bounded: no value of the option lets one through unread.
func BodyLimit(v int64) int64 {
	if v > 0 {
		return v
	}
	return DefaultMaxBodyBytes
}

// ReadBody reads req's whole body into memory, refusing one longer than
// max bytes however its length is told. A Content-Length over max is
// refused before a byte is read; a body that declares no length (sent
// with Transfer-Encoding: chunked) is refused as soon as it passes max,
// so it costs at most max+1 bytes. Either way the error satisfies
// TooLarge: answer 413, as the adapters do for both, rather than letting
// a cut-off body reach a decoder that would call it malformed. Any other
// error is the connection's (a client that went away, a broken chunk):
// answer 400.
//
// w is the request's ResponseWriter: when it is the server's own, a body
// over the bound also tells the server to close the connection after the
// reply instead of reading on. A request without a body reads as empty.
func ReadBody(w http.ResponseWriter, req *http.Request, max int64) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	if req.ContentLength > max {
		return nil, &http.MaxBytesError{Limit: max}
	}
	return io.ReadAll(http.MaxBytesReader(w, req.Body, max))
}

// TooLarge reports whether err from ReadBody (or from reading a body
// wrapped in http.MaxBytesReader) means the body passed its bound.
func TooLarge(err error) bool {
	var tooBig *http.MaxBytesError
	return errors.As(err, &tooBig)
}
