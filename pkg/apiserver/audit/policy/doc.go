// Package policy reads the audit policy of --audit-policy-file
// (audit.platform.io/v1 or upstream's audit.k8s.io/v1, YAML or JSON) and
// decides each request's audit level: the first rule that matches wins,
// and a request no rule matches is not audited.
package policy
