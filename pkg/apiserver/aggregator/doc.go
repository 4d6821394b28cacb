// Package aggregator serves the group versions that APIServices delegate to
// other servers: it proxies their paths (after the API server's own
// authentication and authorization) to the Service's endpoint with the
// front-proxy client certificate and the user in request headers, answers
// 503 while an APIService is not Available, keeps the Available condition
// from periodic discovery checks, and merges the delegated groups into
// /apis. It never takes a path of a group the server serves itself.
package aggregator
