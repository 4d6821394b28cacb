// Package generic is what the two webhook plugins share: the registered
// webhooks read from their configurations' store (a watch-cache read per
// request, so a change is seen as soon as the cache has it), the decision
// whether a webhook sees a request (rules, scope, namespaceSelector,
// objectSelector, matchPolicy Equivalent), the call itself (AdmissionReview
// version, timeout, failurePolicy, dry-run and side effects, warnings) and
// upstream's webhook metrics.
package generic
