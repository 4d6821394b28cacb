// Package v1 defines scheduling.platform.io/v1 PriorityClass: a named
// priority that pods refer to by spec.priorityClassName, which the
// Priority admission plugin turns into spec.priority and
// spec.preemptionPolicy. It also names the two built-in system classes.
// JSON names and protobuf numbers match upstream's scheduling v1 wire format.
//
//go:generate go run ../../../hack/protogen
package v1
