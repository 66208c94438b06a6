package agent

// Exposes reports whether c exposes this very capability: the handle
// Expose or ExposeMapped returned and Make was given, not merely one with
// the same name. A layer declared over a contract (journeys naming
// capabilities by handle, say) uses it to refuse, when it is built, a
// handle from another contract or one left out of this one.
//
// It is a function rather than a method so that a program that never
// calls it (a browser build) links none of it.
func Exposes[Model, P any](c *Contract[Model, P], capability Capability[Model, P]) bool {
	if c == nil || capability == nil {
		return false
	}
	capab := capability.capability()
	return capab != nil && c.byName[capab.name] == capab
}
