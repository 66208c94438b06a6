//go:build !unix

package journeymcp_test

import "testing"

// personKeys needs a named pipe, which this platform's tests do not make.
func personKeys(t *testing.T) (string, func(string)) {
	t.Skip("the shop's person-at-the-keyboard pipe (-keys) needs a Unix named pipe")
	return "", nil
}
