package agent

// CompletionContract says which later fact finishes a capability's work,
// so that dispatch can wait for it instead of reporting success on
// receipt. Without one, validated dispatch is the boundary.
//
// The contracts are built by this package's constructors; the interface
// is closed so that the runtime can rely on their semantics.
type CompletionContract[In, Model, P any] interface {
	compile(capability string) completionPlan[Model, P]
}

// completionPlan is a compiled completion contract. A nil plan means the
// capability declares none.
type completionPlan[Model, P any] = *completionSpec[Model, P]

// completionSpec is filled in by the completion constructors.
type completionSpec[Model, P any] struct {
	descriptor *CompletionDescriptor
}

func (s *completionSpec[Model, P]) describe() *CompletionDescriptor {
	if s == nil {
		return nil
	}
	return s.descriptor
}

func compileCompletion[In, Model, P any](capability string, cc CompletionContract[In, Model, P]) completionPlan[Model, P] {
	if cc == nil {
		return nil
	}
	return cc.compile(capability)
}

// CompletionDescriptor is a completion contract as data, for manifests.
type CompletionDescriptor struct {
	// Success lists the Go type tags of the Messages that complete the work.
	Success []string `json:"success,omitempty"`
	// Failure lists the tags of the Messages that report it failed.
	Failure []string `json:"failure,omitempty"`
	// State is true for a contract that completes on a condition over state.
	State bool `json:"state,omitempty"`
}

// CompletionStatus is how a completion contract was met.
type CompletionStatus string

// Completion statuses.
const (
	Completed CompletionStatus = "completed"
	Failed    CompletionStatus = "failed"
)

// Completion is the fact that finished a capability's work: a success or
// failure Message, or (for a contract on state) no Message at all.
type Completion struct {
	Status  CompletionStatus `json:"status"`
	Message any              `json:"-"`
	// Tag is the Go type name of Message, or "" for a contract on state.
	Tag string `json:"tag,omitempty"`
}

func (s *completionSpec[Model, P]) needsObserve() bool   { return false }
func (s *completionSpec[Model, P]) needsSubscribe() bool { return false }
