// Package resource provides Quantity, the fixed-point number with a unit
// suffix ("100m", "1.5Gi", "2e3") used for cpu, memory and other resources,
// and ResourceList, a map of resource name to quantity.
package resource

// Quantity is a fixed-point number serialized as a string in canonical form.
type Quantity struct {
	s string
}

// ResourceName names a resource such as "cpu" or "memory".
type ResourceName string

// ResourceList maps resource names to quantities.
type ResourceList map[ResourceName]Quantity
