// Package statefulset is the registry row of apps/v1 statefulsets: their
// defaults, validation, the short list of spec fields an update may change,
// and the scale subresource.
package statefulset
