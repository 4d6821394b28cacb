// Package audit records what the API server's clients do: WithAudit makes
// an audit event at each stage of a request (RequestReceived,
// ResponseStarted for watches, ResponseComplete, Panic) at the level the
// policy chooses, and hands it to a Backend (the log file, the webhook,
// through the buffering and truncation wrappers of the subpackages). A
// backend may keep the events it is given: the filter never changes an
// event after handing it over.
package audit
