// Package workqueue provides a generic, concurrency-safe work queue for
// controllers. An item is never queued twice, is never handed to two workers
// at once, and is re-queued exactly once if added again while being processed.
// Delayed and rate-limited adds, and metrics, use an injected Clock.
package workqueue
