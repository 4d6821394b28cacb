// Package defaultbinder is the DefaultBinder bind plugin: it posts a
// Binding of the pod to the chosen node to the pod's binding subresource.
package defaultbinder
