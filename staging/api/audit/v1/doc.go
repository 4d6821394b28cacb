// Package v1 holds audit.platform.io/v1: the Event the API server's audit
// log and audit webhook receive (one per request stage), the EventList a
// webhook batch is posted as, and the Policy of --audit-policy-file that
// decides how much of each request is recorded. These kinds are never
// served or stored, so they are JSON only; audit.k8s.io/v1 documents have
// the same fields and are read the same way.
package v1
