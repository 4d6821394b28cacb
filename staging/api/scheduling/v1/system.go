package v1

// The priority ranges and the built-in classes, with upstream's values.
const (
	// HighestUserDefinablePriority is the largest value a class whose name
	// does not start with SystemPriorityClassPrefix may have.
	HighestUserDefinablePriority int32 = 1000000000
	// SystemCriticalPriority is the bottom of the range of the system classes.
	SystemCriticalPriority int32 = 2 * HighestUserDefinablePriority
	// SystemPriorityClassPrefix starts the names reserved for the built-in classes.
	SystemPriorityClassPrefix = "system-"
	// SystemClusterCritical is for pods the cluster cannot work without.
	SystemClusterCritical = SystemPriorityClassPrefix + "cluster-critical"
	// SystemNodeCritical is for pods a node cannot work without; it
	// outranks SystemClusterCritical.
	SystemNodeCritical = SystemPriorityClassPrefix + "node-critical"
)

// SystemPriorityClasses returns the built-in classes, which the API server
// creates at start and which cannot be changed or deleted.
func SystemPriorityClasses() []PriorityClass {
	class := func(name string, value int32, desc string) PriorityClass {
		pc := PriorityClass{Value: value, Description: desc}
		pc.Name = name
		return pc
	}
	return []PriorityClass{
		class(SystemNodeCritical, SystemCriticalPriority+1000, "Used for system critical pods that must not be moved from their current node."),
		class(SystemClusterCritical, SystemCriticalPriority, "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."),
	}
}

// SystemPriorityClass returns the built-in class named name, if there is one.
func SystemPriorityClass(name string) (PriorityClass, bool) {
	for _, pc := range SystemPriorityClasses() {
		if pc.Name == name {
			return pc, true
		}
	}
	return PriorityClass{}, false
}
