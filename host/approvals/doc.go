// Package approvals is the person's side of an agent's request for
// approval, for any view: a [Deck] of the requests waiting, drawn one
// [Card] at a time, and the [Activity] lines that say who did what.
//
// It needs no terminal. host/teahost draws the Deck over any Bubble Tea
// application; a host/loop application, a WebMCP page or any other view
// keeps a Deck beside its Model, feeds it the runtime's ApprovalAsked and
// ApprovalWithdrawn Messages (Deck.Update) or its PendingApprovals
// (Deck.Sync), draws Deck.Card, and passes the person's keys to Deck.Key,
// which returns the answer to dispatch.
//
// # What the person approves is what they saw
//
// A card shows the asking agent (numbered by [Agents], as the activity
// lines number it: "agent 2"), the capability's summary, which card it is
// ("card 1 of 3"), and what an approval covers: the input's fields and the
// watched values, as data. The answer a key gives is built by
// agent.ApprovalRequest.Approve or Decline, so it names the card's
// fingerprint (ApprovalAnswer.Shown), and the runtime refuses it if the
// request is no longer that. Only a card that shows all the approval
// covers (Card.Whole: at most MaxFields values, none past MaxValueCells
// cells) can be approved; one that cannot is declined or left to time
// out, and says so: an agent cannot hide the part that matters past the
// card's last line.
//
// Keys count only once the card has been on screen, unchanged, for the
// settle time (Options.Settle, about a second by default). A key before
// that is dropped, not kept for later, and the card says so. Any change to
// the card in front restarts it: another request in front, the same
// request with another input, a watched value that moved. So does every
// key that goes to the application while the card is shown: someone
// typing into the application when a card came is not reading it. A y or
// n dropped does not restart it. This is the
// browsers' answer to the typed-y attack on their security dialogs
// (Firefox bug 162020): a page that makes the person type, then opens the
// dialog under their fingers. Here the attacker is an agent that withdraws
// its request and asks for a bigger one just before the person's y lands;
// the y then answers nothing. If it withdraws its request and asks for
// nothing, a y or n within the settle time after the card left answers
// nothing either, and does not fall through to the application (where it
// could answer a prompt of the application's own). A request queued
// behind the card changes its count, not what y answers, and does not
// restart it (else an agent could keep every card from settling by
// asking again and again).
//
// The settle time follows the clock the caller passes each method: a
// host passes the time it handles the Message or key, and a test a clock
// of its own, with no sleeps.
//
// Everything a card or an activity line draws that came from an agent or
// the Model goes through host/inert.
package approvals
