// Package resourcequota is the registry row of core/v1 resourcequotas
// (with its status subresource), its validation (resource names and
// quantities, scopes and scope selectors as upstream allows them) and its
// kubectl columns. Enforcing quotas is the ResourceQuota admission
// plugin's job; status is written by it and by the quota controller.
package resourcequota
