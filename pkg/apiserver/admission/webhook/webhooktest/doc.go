// Package webhooktest runs real HTTPS admission webhooks for tests: a TLS
// server on 127.0.0.1 with a CA of its own (its bundle goes in caBundle),
// handlers that allow, refuse, patch, hang or answer garbage, and the
// record of the AdmissionRequests received.
package webhooktest
