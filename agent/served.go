package agent

import (
	"context"
	"encoding/json"
)

// Served is a bound runtime as a protocol adapter serves it: the face of
// *Runtime without its type parameters. *Runtime satisfies it whatever
// its Model, Message and principal types, and so does an application's
// wrapper that embeds one (a wrapper that overrides DispatchUnknown, say,
// to report each call). Every adapter (mcpagent, a2aagent, nativeagent,
// webmcp) takes this one face, by the name of its own Runtime, and asks
// nothing else of it: each ability below is always there, so no adapter
// serves a runtime differently by finding out what else it implements.
//
// On an unversioned host the versioned reads answer version 0, which the
// adapters serve as no version at all, and CatchUp returns at once.
type Served interface {
	// Describe returns the whole contract as data, whatever the Model.
	Describe() Description
	// Available returns the descriptors the current Model offers, read
	// for no caller (see Runtime.Available).
	Available() ([]Descriptor, error)
	// AvailableSet reports the current offer as one flag per capability,
	// in Describe's order, allocating nothing once dst is large enough
	// (see Runtime.AvailableSet).
	AvailableSet(dst []bool) ([]bool, error)
	// TrackOffer returns a new OfferTracker following the offer for one
	// listener (see Runtime.TrackOffer). A runtime that knows its offer
	// only as a set answers TrackSet(its AvailableSet); it never returns
	// nil.
	TrackOffer() OfferTracker
	// Offered is Available read as the look of the caller ctx names,
	// with the version it was taken at (see Runtime.Offered).
	Offered(ctx context.Context) (Offer, error)
	// ContextRead reads the context projection with its version; a
	// contract with no context answers a Read whose Value is nil.
	ContextRead(ctx context.Context) (Read, error)
	// ResourceRead reads a declared resource by name with its version.
	ResourceRead(ctx context.Context, name string) (Read, error)
	// CatchUp waits until the Model is at least as new as every result
	// the runtime has answered (see Runtime.CatchUp).
	CatchUp(ctx context.Context) error
	// Subscribe calls listener after every Model change and returns a
	// function that stops it.
	Subscribe(listener func()) (unsubscribe func())
	// CanSubscribe reports whether Subscribe will ever call its listener.
	CanSubscribe() bool
	// DispatchUnknown invokes a capability with a raw JSON payload,
	// through the contract's checked path.
	DispatchUnknown(ctx context.Context, name string, payload json.RawMessage, inv Invocation) (Result, error)
}

// *Runtime is Served for any type parameters.
var _ Served = (*Runtime[struct{}, struct{}, struct{}])(nil)
