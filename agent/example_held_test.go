package agent_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/foldagent/foldagent/agent"
)

// A call past a HeldBound is refused with a RetryLaterError: its wire form
// names the bound and says when to call again; the sentence carries no
// runtime value.
func ExampleRetryLaterError() {
	err := &agent.RetryLaterError{Capability: "refund", Type: "Refund", Bound: "MaxHeldPerIdentity", Limit: 16, PerIdentity: true, RetryAfter: time.Second}
	b, _ := json.MarshalIndent(err, "", " ")
	fmt.Println(string(b))
	// Output:
	// {
	//  "_tag": "AgentRetryLaterError",
	//  "capability": "refund",
	//  "tag": "Refund",
	//  "message": "\"refund\" was not run: this caller already has as many calls waiting for the person's approval as the application allows. Nothing was done; call again once some of them have been answered.",
	//  "bound": "MaxHeldPerIdentity",
	//  "limit": 16,
	//  "perIdentity": true,
	//  "retryAfterSeconds": 1,
	//  "retrySafe": true
	// }
}
