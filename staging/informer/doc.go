// Package informer keeps an in-memory, indexed copy of one resource's objects
// in step with the server and tells handlers about every change.
//
// The pieces, bottom up:
//
//   - ListerWatcher[T] is what the package needs from a typed client: a
//     (chunked) list and a watch.
//   - Store[T] is a thread-safe cache keyed by "namespace/name" (or "name"
//     for cluster-scoped objects) with named indexes; the namespace index is
//     always present.
//   - Reflector[T] fills a Sink[T] (a Store, or an Informer) from a
//     ListerWatcher: list, then watch from the list's resourceVersion.
//   - Informer[T] owns one Store and one Reflector and fans changes out to
//     any number of handlers.
//   - Factory holds the informers of a process, one per registered key.
//   - Lister[T] reads a Store with label selectors and namespaces.
//
// Guarantees:
//
//   - One watch per informer, however many handlers it has. A Factory
//     returns the same Informer for the same key; reading a key that was
//     never registered with For is an error, never a new informer.
//   - The reflector lists in pages of ReflectorOptions.PageSize (500),
//     following continue tokens. The first list asks for resourceVersion "0"
//     (any cached state); every later list, and a list whose continue token
//     expired (410), starts over without a resourceVersion (a fresh read).
//   - After a list it watches from the list's resourceVersion with bookmarks
//     allowed and a random server timeout in [MinWatchTimeout,
//     2*MinWatchTimeout). When a watch ends it resumes from the last
//     resourceVersion seen, bookmarks included, so no event is missed or
//     repeated. A 410 Gone or Expired, as an HTTP error or as an ERROR event,
//     makes it list again. Other failures back off exponentially on the
//     injected Clock.
//   - A relist delivers only differences: adds for new keys, updates for
//     objects whose resourceVersion changed, deletes (carrying the last known
//     state) for keys that disappeared.
//   - Every handler sees the changes in the order the store applied them, from
//     its own unbounded queue and goroutine: a slow handler never blocks the
//     reflector or the other handlers. A handler added after the informer has
//     objects first receives an add (isInInitialList=true) for each of them,
//     then every later change, with nothing missed or doubled.
//   - A resync re-delivers every cached object to a handler as an update with
//     old == new, at the handler's own period (checked on the injected Clock,
//     at most one check period late). Resyncs never touch the server.
//   - HasSynced turns true once the first full list is in the store;
//     Registration.HasSynced once that handler has also consumed the adds
//     for it.
//
// Objects handed out by stores, listers and handlers are shared with the
// cache and with other handlers: never modify them; copy first.
package informer
