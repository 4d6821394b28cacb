// Package serviceaccount is the registry row of core/v1 service accounts:
// identities for pods, whose secret and image pull secret references must
// name something. When the server has a token issuer it also serves the
// serviceaccounts/token subresource (TokenRequest), which signs a token
// for the account, optionally bound to a pod or secret.
package serviceaccount
