// Package serviceaccount is the registry row of core/v1 service accounts:
// identities for pods, whose secret and image pull secret references must
// name something.
package serviceaccount
