// Package namespace is the registry row of core/v1 namespaces: their
// strategy (the platform finalizer, Active and Terminating phases), and the
// Checker the generic store asks before creating an object in a namespace.
package namespace
