// Package webhook tests admission webhooks on a real API server: the
// webhook configuration API (both versions, the upstream group alias,
// validation, RBAC) and real HTTPS webhooks started by the tests, called
// for real requests.
package webhook
