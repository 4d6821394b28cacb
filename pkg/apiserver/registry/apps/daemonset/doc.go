// Package daemonset is the registry row of apps/v1 daemonsets: their
// defaults, validation, selector immutability and the deprecated template
// generation annotation the server maintains.
package daemonset
