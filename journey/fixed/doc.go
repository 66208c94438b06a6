// Package fixed serves a journey session to a model as a fixed set of
// tools ("Mode B"): one tool per journey (or one taking the journey id),
// then whats_here, why, do_action and did_it_work. The tool array is
// computed once and its bytes never change for the life of the port, so a
// prompt cache stays warm and any plain MCP host can drive it; what
// changes from turn to turn rides the results.
//
// A Port reaches its session only through package journey's exported
// API. Every sentence it serves is a library constant; runtime values
// (state, inputs, labels, produced data) ride in data fields only.
// journeymcp serves a Port over MCP.
//
// Each answer kind is a typed struct (answer.go, settle.go, whats_here.go,
// fire.go, fire_answer.go) whose fields are in wire order, built by a pure
// function of one read of the session; resultOf turns it into the ordered
// CallResult a call returns, whose encoding is the struct's own.
package fixed
