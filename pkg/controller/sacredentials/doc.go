// Package sacredentials gives each loop of the controller manager a client
// of its own service account (--use-service-account-credentials): it makes
// sure the account exists in platform-system, obtains its token by
// TokenRequest, and requests a new one before the old expires.
package sacredentials
