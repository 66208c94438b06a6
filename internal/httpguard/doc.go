// Package httpguard holds the checks every HTTP adapter of this module
// makes before a request reaches the contract: the browser Origin
// allowlist, DNS-rebinding protection on loopback, the bearer token, the
// identity a runtime is keyed by, and the body bound (one default,
// DefaultMaxBodyBytes, and one reading of the option, BodyLimit). One place for each
// rule, so that the MCP, A2A and Agent Native endpoints refuse the same
// requests the same way.
package httpguard
