// Package fencing tests the API server's leader-lock check: writes that
// name a leader lock (X-Platform-Leader-Lock) land only while the Lease is
// held by that holder at that transition; reads and unfenced writes are
// unaffected.
package fencing
