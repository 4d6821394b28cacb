package framework

import corev1 "platform.io/client/api/core/v1"

// conditionTaints returns the taint keys the node's conditions stand for,
// in the order Ready, NetworkUnavailable, MemoryPressure, DiskPressure,
// PIDPressure: not-ready for Ready False, unreachable for Ready Unknown,
// network-unavailable for NetworkUnavailable not False, and a pressure
// taint for a pressure condition True. A healthy node gets nil. A missing
// condition stands for nothing.
func conditionTaints(node *corev1.Node) []string {
	var ready, network, memory, disk, pid string
	for i := range node.Status.Conditions {
		c := &node.Status.Conditions[i]
		switch c.Type {
		case corev1.NodeReady:
			switch c.Status {
			case corev1.ConditionTrue:
				ready = ""
			case corev1.ConditionUnknown:
				ready = corev1.TaintNodeUnreachable
			default:
				ready = corev1.TaintNodeNotReady
			}
		case corev1.NodeNetworkUnavailable:
			network = taintIf(c.Status != corev1.ConditionFalse, corev1.TaintNodeNetworkUnavailable)
		case corev1.NodeMemoryPressure:
			memory = taintIf(c.Status == corev1.ConditionTrue, corev1.TaintNodeMemoryPressure)
		case corev1.NodeDiskPressure:
			disk = taintIf(c.Status == corev1.ConditionTrue, corev1.TaintNodeDiskPressure)
		case corev1.NodePIDPressure:
			pid = taintIf(c.Status == corev1.ConditionTrue, corev1.TaintNodePIDPressure)
		}
	}
	var taints []string
	for _, t := range []string{ready, network, memory, disk, pid} {
		if t != "" {
			taints = append(taints, t)
		}
	}
	return taints
}

func taintIf(bad bool, taint string) string {
	if bad {
		return taint
	}
	return ""
}
