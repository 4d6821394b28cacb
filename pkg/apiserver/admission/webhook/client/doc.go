// Package client makes the HTTPS calls to admission webhooks: it reaches a
// webhook by its URL or by its Service (resolved through the Service's
// Endpoints to an address, the certificate checked for
// <name>.<namespace>.svc), verifies the webhook's certificate with the
// configuration's caBundle (the system roots when empty), and keeps one
// connection pool per bundle and server name.
package client
