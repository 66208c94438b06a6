// Package shop is a small store an AI agent can shop in through a journey
// port: catalog, product, cart and checkout, a high-effect place-order,
// and a payment that a (simulated) payment server settles later, and can
// refuse.
//
// The store keeps its own model (the cart, the address, the orders) and
// reports every change to the session by transition id, the way an
// application's update loop would; its router reports every page change
// with Sync, which corroborates the navigation claims the actions make.
package shop
