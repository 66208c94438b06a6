// Command formapproval is a form made with huh (charm.land/huh/v2, a
// published Bubble Tea model this repository did not write, used as a
// module dependency) that an agent may type into, each time with the
// person's approval, asked on a card host/teahost draws over the form.
// form.go is the program as huh's documentation writes one; only main
// changed: it runs the program under teahost with Options.Approvals and
// binds a contract with one capability, type_text, which needs the
// person's approval.
//
//	go run ./examples/formapproval -type 'Lovelace'
package main
