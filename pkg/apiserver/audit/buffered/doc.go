// Package buffered is the batch mode of an audit backend: events go into
// a bounded buffer and never make a request wait; a background loop sends
// them to the delegate in batches (of at most MaxBatchSize, at most
// MaxBatchWait after a batch's first event), optionally throttled. When
// the buffer is full, events are dropped and counted in
// apiserver_audit_error_total{plugin="buffered"}. When Run ends, the
// buffer is flushed.
package buffered
