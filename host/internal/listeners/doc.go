// Package listeners is the copy-on-write listener registry both hosts use
// for Subscribe and Observe.
package listeners
