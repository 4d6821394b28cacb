// Package authn tests the API server's authentication chain end to end on a
// real server: each method (client certificates, front-proxy headers,
// token file, bootstrap tokens, token webhook, anonymous) under the modes
// AlwaysAllow and AlwaysDeny, answering 200, 401 or 403, and impersonation.
package authn
