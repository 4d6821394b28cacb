// Package webhook is the audit webhook backend: events are POSTed as an
// EventList (audit.platform.io/v1 or audit.k8s.io/v1) to the server a
// kubeconfig file names (--audit-webhook-config-file), retried with an
// exponential backoff from --audit-webhook-initial-backoff when the
// server cannot be reached, answers 429 or a 5xx.
package webhook
