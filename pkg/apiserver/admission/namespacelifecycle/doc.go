// Package namespacelifecycle is the NamespaceLifecycle admission plugin:
// nothing is created in a namespace that does not exist or is being
// deleted, and the namespaces the system needs (default, platform-system,
// platform-public) cannot be deleted.
package namespacelifecycle
