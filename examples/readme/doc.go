// Package readme is the code the repository's README.md shows, compiled
// and run, so that the README cannot drift from the API: readme_test.go
// checks that every Go block of the README is lines of readme.go or of
// the two whole programs beside it, sixty (the "Sixty seconds" block,
// shown whole, run as its Example) and serve ("Serve your own app", shown
// whole but for the application it shares with sixty, run as a process
// over MCP stdio and HTTP by its test).
package readme
