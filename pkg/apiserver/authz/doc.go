// Package authz is the API server's authorization: the request attributes
// every authorizer reads (user, verb, API group, resource, subresource,
// namespace, name, or a non-resource path), the Authorizer contract, the
// ordered chain of --authorization-mode where the first Allow or Deny wins,
// and the filter that answers everything else 403 in upstream's words.
// Each mode lives in a package of its own below this one.
package authz
