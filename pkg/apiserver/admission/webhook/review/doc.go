// Package review is the AdmissionReview exchange with a webhook: which
// version to send (the first of the webhook's admissionReviewVersions this
// server speaks), the request body, and the checks a response must pass
// (present, same uid and version, a patch only from a mutating webhook and
// only as JSONPatch).
package review
