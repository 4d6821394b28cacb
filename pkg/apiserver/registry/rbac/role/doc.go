// Package role is the registry row of rbac.authorization.platform.io/v1
// roles: namespaced rules, written only by users who hold them (or may
// escalate).
package role
