// Package webhookvalidation holds what both webhook configuration kinds
// share in the registry: the defaults of v1 and of v1beta1, and upstream's
// validation of a webhook (name, client config, rules, policies, selectors,
// side effects, timeout, AdmissionReview versions).
package webhookvalidation
