// Package run runs a daemon's parts until a signal and shuts them down in
// order.
//
// Run starts the server and every component at once. Shutdown begins at
// the first SIGTERM or SIGINT, when the parent context ends, when a
// component returns an error, or when the server fails; it then
//
//  1. tells the server shutdown began (its /readyz fails from then on),
//  2. calls StopLeading: the daemon stops leader-gated work and releases
//     its lock,
//  3. calls Drain: the daemon shuts its queues down and waits for workers,
//  4. cancels the components' context and waits for them to return,
//  5. cancels the server's context and waits for it to close,
//
// all within ShutdownTimeout. After the first signal the default
// disposition is restored, so a second one ends the process at once.
//
// Run returns the first component or server error, joined with the errors
// of the hooks and of a shutdown that ran out of time; a context
// cancellation is no error.
package run
