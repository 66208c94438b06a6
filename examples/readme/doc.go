// Package readme is the code the repository's README.md shows, compiled
// and run, so that the README cannot drift from the API: readme_test.go
// checks that every Go block of the README appears here, line for line.
package readme
