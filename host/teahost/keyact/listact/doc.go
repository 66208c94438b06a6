// Package listact is what an agent contract over bubbles' list
// (charm.land/bubbles/v2/list) needs again and again, so that a program
// built on the list declares its actions and little else: rows that are
// plain strings ([Item], [Items]) and their values ([Values]); the mode the
// list's own keys are for ([Browsing]); the presses a person makes to put
// the cursor on a row ([Select]) and to filter ([Filter]), for keyact
// actions; when a filter has settled ([Filtered], for keyact's Settled:
// the list matches in a Cmd); and a delegate's UpdateFunc that removes the
// selected row on a key ([RemoveOn], as bubbles' list-fancy example does).
//
// Every function reads the list through its exported methods; none keeps
// state.
package listact
