// Package webhook is the Webhook authorization mode
// (--authorization-webhook-config-file): each request's attributes are
// POSTed as a SubjectAccessReview (authorization.platform.io v1beta1 or
// v1) to the service a kubeconfig file names. allowed: true allows,
// denied: true denies (final), neither is NoOpinion. A failed call is
// NoOpinion with the error and is not cached; answers are cached per
// attributes, allowed ones for one TTL and the rest for another.
package webhook
