// Package authn is the API server's authentication: the chain of methods
// of the spec's Authentication section (client certificates, front-proxy
// headers, bearer tokens from a file, bootstrap tokens, service-account
// tokens and a webhook), where the first method that succeeds names the
// user, a failed one is a 401, and a request no method recognised is
// anonymous when --anonymous-auth allows it. The user types and the
// certificate and header methods are shared with the daemons through
// pkg/component/authn.
package authn
