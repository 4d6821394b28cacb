// Package server is the secure endpoint every daemon serves: HTTPS only,
// TLS 1.2 or later, with
//
//   - /healthz, /livez and /readyz (see package healthz): ping plus the
//     daemon's checks on all three, the ready-only checks and a "shutdown"
//     check on /readyz, which fails from the moment shutdown begins;
//   - /metrics from the daemon's registry;
//   - /debug/pprof/ when profiling is enabled, and nothing under it
//     otherwise;
//   - whatever else the daemon adds with Handle before Run.
//
// Every request passes the authentication filter (package authn), then the
// authorization filter (package authz); a request the daemon's paths do
// not know is answered 404 only after both passed. Client certificates are
// requested but not required by the TLS handshake; the authenticator
// verifies them.
//
// Run serves until its context ends, then stops accepting connections and
// waits up to the shutdown timeout for requests in flight.
package server
