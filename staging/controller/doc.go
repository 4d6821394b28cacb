// Package controller runs level-based control loops: a Reconciler is called
// with the key ("namespace/name") of an object that may need work, reads the
// current state from listers, and acts. The worker loop here owns the
// rate-limited queue: every Get is paired with one Done, a success Forgets
// the key's backoff, a failure requeues it with backoff, and a Result may ask
// for a later visit. A key is never reconciled by two workers at once.
package controller
