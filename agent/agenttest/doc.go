// Package agenttest helps an application keep its committed agent
// contract documents true.
//
// A contract is data, so what an application exposes to agents can be
// reviewed like code: commit agent.json (agent.Manifest) and AGENT.md
// (agent.Markdown), and call Golden from a test. When the contract
// changes, the test fails with a diff; running the tests with -update
// rewrites the files, and the change shows up in review.
//
//	func TestAgentContract(t *testing.T) {
//		agenttest.Golden(t, todo.Contract(), "agent.json")
//		agenttest.Golden(t, todo.Contract(), "AGENT.md")
//	}
//
// The package registers the -update test flag (unless the test binary
// already has one by that name when it is loaded).
package agenttest
