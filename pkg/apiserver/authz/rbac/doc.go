// Package rbac is authorization mode RBAC: Roles, ClusterRoles and their
// bindings (rbac.authorization.platform.io/v1) decide requests. It holds
// the rule matching and "covers" logic, the authorizer and rule resolver,
// escalation prevention for writes of roles and bindings, and the
// aggregation of ClusterRoles.
//
// Decisions read an in-memory index keyed by subject: the RoleBindings of
// each namespace and the ClusterRoleBindings, by user name and by group (a
// service account is its user name), and the roles by name. A request
// looks up the user's name and each of its groups, so its cost does not
// grow with the number of bindings of other users.
//
// The index is fed inside the API server, without a client or HTTP: for
// each of the four resources it lists the registry store (served from the
// watch cache when there is one) and watches it from the list's revision,
// listing again when a watch ends. This is the cheapest correct way: the
// watch cache already holds the objects and fans out changes, so the feed
// costs one more watcher per kind and no etcd traffic of its own. Like any
// informer it trails writes by moments, as upstream's does.
//
// Aggregated ClusterRoles are written by the API server itself: when a
// ClusterRole changes, every ClusterRole with an aggregationRule gets the
// union of the matching roles' rules (as system:apiserver, in
// system:masters). Each API server computes the same rules, so several
// replicas agree and a write that changes nothing is skipped.
//
// RBAC never denies: requests no rule allows get NoOpinion, so later
// authorizers may still allow them.
package rbac
