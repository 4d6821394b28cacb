// Package validating is the ValidatingAdmissionWebhook plugin: it calls,
// in parallel, the webhooks of every ValidatingWebhookConfiguration that
// see the request, and refuses the request when any of them refuses it
// (or fails under failurePolicy Fail); the first such answer in webhook
// order is the client's.
package validating
