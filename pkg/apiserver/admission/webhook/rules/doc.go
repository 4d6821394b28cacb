// Package rules decides whether a webhook rule (operations, groups,
// versions, resources with subresources, scope) covers a request. It is
// pure logic; selectors and version equivalence are the caller's.
package rules
