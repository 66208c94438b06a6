// Package inert makes text that came from an agent or from the Model
// safe to draw on a terminal: shown, never obeyed.
//
// A string an agent wrote (a todo title, a delivery address, a tool's
// input) can carry what a terminal acts on rather than shows: escape
// sequences that hide text (SGR 8, conceal), move the cursor or set the
// window title; line breaks that draw lines of their own and so fake the
// layout around them (four "APPROVE?" cards where there is one); bidi
// controls that reorder what is read. [Line] and [Text] return the same
// text with every such rune drawn as a visible stand-in:
//
//   - C0 controls as their Unicode control pictures: ESC as ␛ (so SGR 8
//     reads ␛[8m), a line feed as ␤, a tab as ␉, NUL as ␀; DEL as ␡;
//   - C1 controls (U+0080–U+009F) as ␛ and their 7-bit form (U+009B, the
//     one-rune CSI, reads ␛[);
//   - line and paragraph separators (U+2028, U+2029) as ␤;
//   - invisible format characters (bidi overrides and isolates, zero-width
//     spaces and joiners, the byte-order mark) as ⟨U+202E⟩;
//   - bytes that are not UTF-8 as �.
//
// The result is one line. [Line] also bounds its display width in
// terminal cells, counting East Asian wide and fullwidth runes and emoji
// as two cells and combining marks as none, and marks a cut with "…".
// Widths are counted from a fixed table, not from the terminal: a rune the
// table does not know counts as one cell. The table leans wide where
// terminals disagree, so a bounded line never takes more cells than asked.
//
// Everything host/approvals draws goes through this package; an
// application's own view should pass agent and Model text through it too.
package inert
