// Package resource provides Quantity, an exact fixed-point number with a unit
// suffix ("100m", "1.5Gi", "2e3") used for cpu, memory and other resources,
// and ResourceList, a map of resource name to quantity. Parsing, canonical
// string forms and JSON encoding follow the upstream Kubernetes API so that
// stock clients read and write the same text.
package resource
