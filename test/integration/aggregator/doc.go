// Package aggregator tests API aggregation on a real API server: an
// aggregated HTTPS server started by the test (it verifies the front-proxy
// client certificate and reads the user from the request headers), an
// APIService delegating its group version, the Available condition and
// 503 while it is down, discovery with the delegated group, the user
// headers reaching it, and RBAC deciding before anything is proxied.
package aggregator
