package journey

// Library sentences for fires the application holds for the person's
// approval (HeldForPerson): while the person decides, the brief and the
// facts name the person, not the app.
const (
	briefAwaitingPerson = "Waiting on the person, who decides in the app: "
	factsAwaitingPerson = "Awaiting the person, who decides in the app: "
	noteHeld            = "waiting for the person to answer on their screen"
	noteWithdrawn       = "the request was withdrawn before the person answered"
	briefWithdrawn      = "Withdrawn before the person answered (nothing was done; ask again only if they still want it): "
)

// withdrawnFor reports whether the fire transitionID was held for the
// person and the request withdrawn before they answered (what it covered
// moved, the review closed, the caller left).
func (b *askBook) withdrawnFor(transitionID string) bool {
	if transitionID == "" {
		return false
	}
	for _, a := range b.asks {
		if a.firedAs == transitionID && a.revoked {
			return true
		}
	}
	return false
}

// heldFor reports whether the fire transitionID is held for the
// person's approval with the card still open: no answer yet, not
// withdrawn.
func (b *askBook) heldFor(transitionID string) bool {
	if transitionID == "" {
		return false
	}
	for _, a := range b.asks {
		if a.firedAs == transitionID && a.inBook && a.answer == "" && !a.revoked {
			return true
		}
	}
	return false
}
