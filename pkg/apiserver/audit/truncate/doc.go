// Package truncate keeps audit events and batches under size limits
// (--audit-log-truncate-max-event-size, -max-batch-size and the webhook's
// pair): an event over the limit loses its request and response objects
// and is annotated audit.platform.io/truncated=true, and is dropped (and
// counted) if still too large; a batch over the limit is split.
package truncate
