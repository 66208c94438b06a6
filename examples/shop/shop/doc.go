// Package shop is a small store an AI agent can shop in through a journey
// port: catalog, product, cart and checkout; a delivery address only the
// person gives; an order review, opened over the checkout page, from which
// a high-effect payment is made once per order; and a (simulated) payment
// server that answers later, and can refuse.
//
// The store is an Elm-architecture application (Model, Messages, Update)
// with one agent contract (Contract) and one journey declared over it
// (Journey). Nothing is reported by hand: journey/bind follows the Model
// for the page, the state view, whether the review is open, and the
// person's own changes.
package shop
