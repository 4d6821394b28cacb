// Package authn authenticates requests to a daemon's secure endpoints by
// delegating to the API server, as the scheduler and controller managers
// do upstream.
//
// A request is tried, in order, as
//
//  1. a front-proxy request: the identity headers (X-Remote-User, ...)
//     are trusted only when the client presented a certificate that
//     verifies against the request-header CA, with a CommonName in the
//     allowed list when one is given; the headers are then removed;
//  2. a client certificate verified against the client CA: the CommonName
//     is the user, the Organizations are the groups (a chain that verified
//     is remembered until it expires, so the signatures are checked once,
//     not on every request);
//  3. a bearer token, checked with a TokenReview sent to the API server;
//     answers are cached, a success for the success TTL and a rejection
//     for the failure TTL, while errors reaching the server are not.
//
// The first method that authenticates wins, and the user gets the group
// system:authenticated. When none does and none failed, the request is
// anonymous: user system:anonymous, group system:unauthenticated. When a
// method failed (an unverifiable certificate, a rejected token) and none
// succeeded, the request is refused with 401 and a Status body.
//
// A method whose configuration is absent is skipped: with no token
// reviewer, bearer tokens are ignored and such requests are anonymous.
//
// Lookup reads the client CA and front-proxy settings the API server
// publishes in platform-system/extension-apiserver-authentication, for the
// settings a daemon was not given on its command line.
package authn
