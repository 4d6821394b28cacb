// Package authz authorizes requests to a daemon's secure endpoints by
// delegating to the API server, as the scheduler and controller managers
// do upstream.
//
// A request is allowed without asking anyone when its path is one of the
// always-allowed paths (an entry ending in "*" is a prefix) or its user is
// in an always-allowed group. Any other request is sent to the API server
// as a SubjectAccessReview with nonResourceAttributes {path, verb}, the
// verb being the lowercased HTTP method; answers are cached, an allowed one
// for the authorized TTL and a denied one for the unauthorized TTL, while
// failures to reach the server are not. Without a reviewer every other
// request is denied.
//
// WithAuthorization answers a denied request 403 and a failed review 500,
// each with a Status body.
package authz
