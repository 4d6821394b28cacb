// Package serviceaccount tests service-account tokens against a real API
// server: the TokenRequest subresource issues them, TokenReview and the
// authenticator verify them with the live checks, the issuer discovery
// documents publish the keys, and the stock kubectl asks for them.
//
// Note: when these tests were written the request authentication chain was
// not wired yet, so tokens are "used" through TokenReview, which the server
// answers with the same authenticator over its own stores. Once the chain
// takes Server.ServiceAccountAuthenticator, a request bearing the token
// should be tested here as well (200 as the account, 401 after deletion).
package serviceaccount
