// Package priorityclass is the registry row of scheduling.platform.io/v1
// priorityclasses: cluster-scoped, with upstream's validation (user values
// up to 1000000000, the system- prefix reserved for the built-in classes,
// value and preemptionPolicy immutable). Only-one-globalDefault and the
// protection of the built-in classes are the Priority admission plugin's.
package priorityclass
