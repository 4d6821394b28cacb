// Package serviceaccount is the serviceaccount loop: every active namespace
// has a ServiceAccount named "default", created when the namespace appears
// and created again whenever it is deleted. Terminating namespaces are left
// alone.
package serviceaccount
