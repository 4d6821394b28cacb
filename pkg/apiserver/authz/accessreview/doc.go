// Package accessreview converts between the authorizer's Attributes and
// the SubjectAccessReview wire types (authorization.platform.io v1 and
// v1beta1), both ways: the review APIs turn a posted spec into Attributes,
// and the Webhook mode turns a request's Attributes into a spec to post.
package accessreview
