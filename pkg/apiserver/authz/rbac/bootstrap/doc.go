// Package bootstrap is the default RBAC policy the API server reconciles
// at every start: the user-facing roles (cluster-admin, admin, edit, view),
// the discovery and self-review roles every user gets, a role for each
// daemon and each controller loop, and the node roles. Reconciling creates
// what is missing and adds missing rules and subjects; it never removes
// what an operator added, and leaves alone objects annotated
// rbac.authorization.platform.io/autoupdate: "false".
package bootstrap
