// Package ttlcache is a small map whose entries expire after a time to live
// given per entry, read through an injected clock. The delegated
// authenticator and authorizer keep review answers in it.
//
// Expired entries are never returned; they are dropped when read and in a
// sweep that runs on writes once the map has grown past its last swept
// size, so memory stays bounded by the entries written within one TTL.
package ttlcache
