package journey

// This file is the port's only reach into the session's internals. Each
// function stands in for a session method the port needs and the session
// does not offer yet (see the port's needs note); when the method lands,
// the body becomes a call to it.

// portMintAsk mints an ask with receipts without firing (default mode
// supersedes the open card for the same action and instance), for a port
// whose fires the session does not gate itself: a user or system source
// that still confirms, or a gated port pausing before any fire.
func (p *Port) portMintAsk(actionID string, opts FireOptions) AskStatus {
	s := p.s
	an, ok := s.g.actionIndex[actionID]
	if !ok {
		return AskStatus{}
	}
	input, _ := normalize(opts.Input)
	s.mu.Lock()
	defer s.unlock()
	a := s.mintAskLocked(an, opts.Instance, input, normPrincipal(opts.Source))
	return s.askStatusLocked(a)
}
