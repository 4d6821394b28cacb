// Package conversion calls the conversion webhook of a
// CustomResourceDefinition whose strategy is Webhook: it sends the objects
// to convert in one ConversionReview (reaching the webhook through the
// admission webhooks' HTTPS client), checks the answer as upstream does
// (same uid and count, the desired apiVersion, the same kind, name,
// namespace and uid) and keeps every field of metadata from the original
// object but labels and annotations.
package conversion
