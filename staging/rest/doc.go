// Package rest is the HTTP client every daemon uses to talk to the API
// server: connection settings (Config, read from a kubeconfig file or from
// the pod's service account), a Client with a request builder, and watch
// streams.
//
// Guarantees:
//
//   - Paths are built as the server serves them: /api/v1 for the core group,
//     /apis/GROUP/VERSION otherwise, then namespaces/NS when a namespace is
//     set, the resource, the name and the subresource. A segment that is
//     empty where required, or holds a "/" or is "." or "..", fails the
//     request before anything is sent.
//   - Bodies go out in the configured content type: the protobuf envelope
//     (application/vnd.platform.protobuf) for objects that have a protobuf
//     form and a TypeMeta, JSON for everything else and whenever the Config
//     asks for JSON; patches as the patch media type given.
//   - Requests ask for protobuf and JSON by default, and responses are
//     decoded by the Content-Type the server sends: a protobuf body must
//     carry the envelope, or decoding fails with an error wrapping
//     protobuf.ErrNoPrefix.
//   - Every failure the server reports is a *errors.StatusError: the Status
//     the server sent (JSON or protobuf), or one built from the HTTP code
//     when the body is not a Status, so the errors.IsXxx predicates work on
//     every error Do returns.
//   - All requests of one Client share one token bucket (QPS, Burst); every
//     attempt, retries included, waits for a token, and the wait ends at
//     once when the request's context is done.
//   - A 429 or 503 that carries Retry-After is retried after that delay, on
//     every verb, up to MaxRetries times; a connection error before any
//     response (refused, reset, EOF) is retried with exponential backoff on
//     the idempotent verbs GET, HEAD, PUT and DELETE only. A done context
//     stops retrying at once.
//   - A watch stream ends with io.EOF when the server closes it or Stop is
//     called, and with the context's error when the context is done; an
//     ERROR event is returned as a *errors.StatusError.
//   - A bearer token file is read again whenever it changes on disk, so
//     rotated service account tokens are picked up without a restart.
//
// Nothing here keeps package state: every setting lives in a Config, and
// time is read through the Config's Clock, so tests can drive it.
package rest
