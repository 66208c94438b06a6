// Package httpguardtest holds what the HTTP adapters' tests share to
// check the rules of internal/httpguard from outside, over loopback.
package httpguardtest
