// Package webhook is the home of the dynamic admission webhooks: the
// MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins (in
// mutating/ and validating/) and what they share: rule matching (rules/),
// the AdmissionReview exchange (review/), the HTTPS calls (client/) and
// the reading, matching and calling of registered webhooks (generic/).
package webhook
