package nodelifecycle

import (
	"slices"

	corev1 "platform.io/client/api/core/v1"
)

// action is what the loop does to one node.
type action int

const (
	none action = iota
	deleteNode
	addShutdownTaint
	removeShutdownTaint
)

func (a action) String() string {
	return [...]string{"none", "delete", "add shutdown taint", "remove shutdown taint"}[a]
}

// probe is what the provider said of a node's instance.
type probe struct {
	exists, shutdown bool
}

// decide is the loop's rule: a Ready node only loses the shutdown taint;
// a node that is not Ready is deleted when its instance is gone, tainted
// while it is shut down, and untainted when it runs again.
func decide(n *corev1.Node, p probe) action {
	tainted := hasShutdownTaint(n)
	switch {
	case isReady(n) || (p.exists && !p.shutdown):
		if tainted {
			return removeShutdownTaint
		}
	case !p.exists:
		return deleteNode
	case p.shutdown && !tainted:
		return addShutdownTaint
	}
	return none
}

func isReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func hasShutdownTaint(n *corev1.Node) bool {
	return slices.ContainsFunc(n.Spec.Taints, func(t corev1.Taint) bool { return t.Key == corev1.TaintNodeShutdown })
}
