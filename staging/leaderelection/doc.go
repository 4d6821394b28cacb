// Package leaderelection lets several replicas of a daemon agree that one
// of them leads, through a lock object in the API server: a Lease, an
// Endpoints or a ConfigMap (the record in the
// "control-plane.alpha.platform.io/leader" annotation), or an Endpoints or
// ConfigMap paired with a Lease while migrating to Leases. The record is
// wire-compatible with upstream Kubernetes clients.
//
// Guarantees:
//
//   - Every write to the lock is a compare-and-swap on the object's
//     resourceVersion, so of two candidates racing for the lock at most one
//     write succeeds.
//   - A candidate takes a lock held by another only after it has seen the
//     record stay unchanged for LeaseDuration (or the duration the record
//     advertises, when longer), measured by its own clock from the moment
//     it first saw the current record. The holder's timestamps are never
//     compared with the local clock, so replicas whose wall clocks
//     disagree, by any amount, are safe; only the rate at which the clocks
//     advance matters.
//   - The record advertises the lease in whole seconds, rounded up, and a
//     candidate waits for the longer of its own LeaseDuration and the
//     advertised one.
//   - A leader counts its term from the moment it sent its last successful
//     renewal, and stops leading once RenewDeadline has passed since then
//     without another success, or as soon as it reads a record naming
//     another holder: IsLeader turns false, the leading context is
//     cancelled (at the end of the term even while a lock call hangs),
//     OnStoppedLeading runs and Run returns. Because LeaseDuration is
//     longer than RenewDeadline, a successor's term cannot begin before
//     the old leader's context is cancelled.
//   - Every renewal changes the record (its RenewTime has microseconds and
//     always moves forward), so every renewal is seen by the others.
//   - Every attempt to acquire, renew or release is bounded by
//     AttemptTimeout (by default the longer of RetryPeriod and a third of
//     RenewDeadline) and by the end of the term, and a leader starts a
//     renewal every RetryPeriod, counted from the start of the one before:
//     one request that hangs does not use up the term.
//   - A record whose holder is empty (as written on release) is free, and
//     is taken at the next attempt; attempts are at most RetryPeriod apart.
//   - With ReleaseOnCancel, a leader whose Run context is cancelled lets a
//     renewal in flight finish, waits for OnStartedLeading to return (until
//     its term would end anyway) and then writes a record with no holder
//     and a one-second lease. It never releases while OnStartedLeading is
//     still running.
//   - OnStoppedLeading is called once, and only after OnStartedLeading was.
//
// Election gives no fencing. Nothing stops an old leader's code from
// running on after its context is cancelled, nor a write it sent before
// then from landing after a successor started. Work that must never
// overlap has to return promptly when the leading context is done, and
// writes that must not interleave need their own guard (a resourceVersion
// precondition, for example). Paused processes (GC, SIGSTOP, a suspended
// VM) and clocks that run at different rates eat into the margin
// LeaseDuration - RenewDeadline.
//
// Nothing here keeps package state: time is read through Config.Clock and
// metrics go to Config.Metrics, so tests can drive both.
package leaderelection
