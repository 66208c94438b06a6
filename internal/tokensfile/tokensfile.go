// Package tokensfile reads the tokens files of the example programs: a
// JSON object mapping each bearer token to the principal it stands for.
// encoding/json keeps the last of two members with one name, so a file
// that gives one token twice would serve the second principal silently
// (a viewer's token, repeated for the owner, would make that token the
// owner's). Decode refuses such a file, naming the two entries by their
// place and their principals' names, never by the token, which is a
// secret.
package tokensfile

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// RepeatedError is a tokens file that gives one token to two entries.
// It names the entries (by their 1-based place in the file and their
// principal's name) and never the token.
type RepeatedError struct {
	// First and Again are the places of the two entries, First < Again.
	First, Again int
	// FirstName and AgainName are the names of their principals, as the
	// caller's name function gives them.
	FirstName, AgainName string
}

func (e *RepeatedError) Error() string {
	return fmt.Sprintf("entry %d (principal %q) repeats the token of entry %d (principal %q): every token must be given once, to one principal",
		e.Again, e.AgainName, e.First, e.FirstName)
}

// Decode reads b, a JSON object mapping tokens to principals, into a map.
// It refuses what encoding/json refuses, and a token given twice
// (*RepeatedError), whose entries name names with.
func Decode[P any](b []byte, name func(P) string) (map[string]P, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("the file is not a JSON object")
	}
	out := map[string]P{}
	place := map[string]int{}
	for i := 1; dec.More(); i++ {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		tok := t.(string) // an object's member names are strings
		var p P
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		if first, ok := place[tok]; ok {
			return nil, &RepeatedError{First: first, Again: i, FirstName: name(out[tok]), AgainName: name(p)}
		}
		place[tok], out[tok] = i, p
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("the file holds more than one JSON value")
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("the file holds more than one JSON value")
	}
	return out, nil
}
