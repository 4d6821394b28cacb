// Package record writes core/v1 Events for controllers: Recorders made by a
// Broadcaster hand events to every sink started on it (the API server,
// through NewRESTSink), which writes them in the background.
//
// Guarantees:
//
//   - Recording never blocks the caller. Every sink has a bounded queue
//     (Options.QueueLength, 1000 by default); an event that finds it full,
//     or arrives while no sink is started or after Shutdown, is discarded
//     and counted in Stats.Dropped.
//   - An event is named "<object name>.<hex>", the hex suffix being the
//     time of recording in nanoseconds, bumped when needed so that no two
//     events of one Broadcaster share a name. It goes to the object's
//     namespace, or to "default" for a cluster-scoped object. Its
//     involvedObject comes from the object's TypeMeta and ObjectMeta (or is
//     the ObjectReference given); firstTimestamp and lastTimestamp are the
//     time of recording, count is 1.
//   - Each sink first applies a spam filter: every (source, involved
//     object) pair has a token bucket of Options.SpamBurst tokens (25) that
//     regains one token every Options.SpamRefill (5 minutes). An event that
//     finds its bucket empty is discarded, counted in Stats.Filtered, and
//     changes nothing else.
//   - It then aggregates similar events, those alike in all but message and
//     field path (source, object, type, reason, reporting controller and
//     instance), by counting their distinct messages: the event that brings
//     the count to Options.AggregateMaxEvents (10), and every similar event
//     after it, is replaced by one whose message is "(combined from similar
//     events): " followed by its own. This lasts until
//     Options.AggregateInterval (10 minutes) passes without a similar
//     event; counting then starts over.
//   - It then correlates: an event identical to one it wrote before (same
//     source, object, field path, type, reason and message; for combined
//     events, the same group) is not created again. The existing event is
//     patched instead, with a strategic merge patch of its count (one
//     more), lastTimestamp and message.
//   - A write that fails for a reason that may pass (a transport error, a
//     429 or a 5xx) is tried again, up to Options.MaxTries (12) attempts in
//     all, Options.RetryInterval (10 seconds) apart, the first wait
//     randomized. Other failures give up at once. An event given up is
//     counted in Stats.Failed and passed to Options.OnError.
//   - A patch that finds the event gone (404) creates it again; a create
//     that finds the name taken (409 AlreadyExists) replaces that event with
//     an unconditional update.
//   - Shutdown stops intake and waits until every sink has written what was
//     queued, or until its context is done.
//
// The state behind these steps is per sink and bounded: each cache keeps at
// most Options.CacheSize keys, forgetting the least recently used. Nothing
// here keeps package state; time is read through Options.Clock.
package record
