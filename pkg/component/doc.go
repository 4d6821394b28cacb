// Package component is the base every daemon of the control plane shares:
// option groups, serving, health, metrics, logging and leader election.
// Subpackages hold one concern each.
package component
