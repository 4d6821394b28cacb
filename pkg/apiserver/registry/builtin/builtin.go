// Package builtin lists the registry rows of every resource the API server
// serves, in the order discovery shows them (the first version of a group
// listed is its preferred version).
package builtin

import (
	"time"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/namespace"
)

// Config carries the server options resources depend on.
type Config struct {
	EventTTL time.Duration
}

// Resources returns the rows of all built-in resources.
func Resources(c Config) []*registry.Resource {
	return []*registry.Resource{
		namespace.Resource(),
	}
}

// NamespaceChecker returns the checker that guards creates in namespaces.
func NamespaceChecker(namespaces *registry.Store) registry.NamespaceChecker {
	return namespace.Checker{Store: namespaces}
}
