// Package rbacvalidation holds the validation and defaulting the four
// rbac.authorization.platform.io/v1 rows share: policy rules, subjects,
// role references and aggregation rules, with upstream's messages.
package rbacvalidation
