package nodelifecycle

import (
	"slices"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// noScheduleKeys are the NoSchedule taints set from conditions.
var noScheduleKeys = []string{corev1.TaintNodeNotReady, corev1.TaintNodeUnreachable, corev1.TaintNodeMemoryPressure, corev1.TaintNodeDiskPressure,
	corev1.TaintNodePIDPressure, corev1.TaintNodeNetworkUnavailable, corev1.TaintNodeUnschedulable}

// lifecycleKey reports whether key is one of the not-ready and unreachable
// taints.
func lifecycleKey(key string) bool {
	return key == corev1.TaintNodeNotReady || key == corev1.TaintNodeUnreachable
}

// wantNoSchedule returns the keys of the NoSchedule taints the node's
// conditions and spec call for, as upstream's TaintNodesByCondition:
// Ready False (not-ready) or Unknown (unreachable), pressure and network
// conditions True, and spec.unschedulable.
func wantNoSchedule(node *corev1.Node) []string {
	var keys []string
	for _, c := range node.Status.Conditions {
		switch {
		case c.Type == corev1.NodeReady && c.Status == corev1.ConditionFalse:
			keys = append(keys, corev1.TaintNodeNotReady)
		case c.Type == corev1.NodeReady && c.Status == corev1.ConditionUnknown:
			keys = append(keys, corev1.TaintNodeUnreachable)
		case c.Type == corev1.NodeMemoryPressure && c.Status == corev1.ConditionTrue:
			keys = append(keys, corev1.TaintNodeMemoryPressure)
		case c.Type == corev1.NodeDiskPressure && c.Status == corev1.ConditionTrue:
			keys = append(keys, corev1.TaintNodeDiskPressure)
		case c.Type == corev1.NodePIDPressure && c.Status == corev1.ConditionTrue:
			keys = append(keys, corev1.TaintNodePIDPressure)
		case c.Type == corev1.NodeNetworkUnavailable && c.Status == corev1.ConditionTrue:
			keys = append(keys, corev1.TaintNodeNetworkUnavailable)
		}
	}
	if node.Spec.Unschedulable {
		keys = append(keys, corev1.TaintNodeUnschedulable)
	}
	return keys
}

// withNoSchedule returns taints with the managed NoSchedule taints set to
// exactly keys, others kept, and whether anything changed.
func withNoSchedule(taints []corev1.Taint, keys []string, now time.Time) ([]corev1.Taint, bool) {
	managed := func(t corev1.Taint) bool {
		return t.Effect == corev1.TaintEffectNoSchedule && slices.Contains(noScheduleKeys, t.Key)
	}
	out := slices.DeleteFunc(slices.Clone(taints), func(t corev1.Taint) bool { return managed(t) && !slices.Contains(keys, t.Key) })
	for _, k := range keys {
		if !slices.ContainsFunc(out, func(t corev1.Taint) bool { return managed(t) && t.Key == k }) {
			out = append(out, newTaint(k, corev1.TaintEffectNoSchedule, now))
		}
	}
	return out, len(out) != len(taints) || !slices.EqualFunc(out, taints, sameTaint)
}

// withNoExecute returns taints with the lifecycle NoExecute taint set to
// key ("" removes both), others kept, and whether anything changed.
func withNoExecute(taints []corev1.Taint, key string, now time.Time) ([]corev1.Taint, bool) {
	out := slices.DeleteFunc(slices.Clone(taints), func(t corev1.Taint) bool {
		return t.Effect == corev1.TaintEffectNoExecute && lifecycleKey(t.Key) && t.Key != key
	})
	if key != "" && !slices.ContainsFunc(out, func(t corev1.Taint) bool { return t.Effect == corev1.TaintEffectNoExecute && t.Key == key }) {
		out = append(out, newTaint(key, corev1.TaintEffectNoExecute, now))
	}
	return out, len(out) != len(taints) || !slices.EqualFunc(out, taints, sameTaint)
}

// noExecuteKey is the lifecycle NoExecute taint the node has, "" for none.
func noExecuteKey(node *corev1.Node) string {
	for _, t := range node.Spec.Taints {
		if t.Effect == corev1.TaintEffectNoExecute && lifecycleKey(t.Key) {
			return t.Key
		}
	}
	return ""
}

// newTaint is a taint of key; a NoExecute one records when it was added,
// which times the evictions it causes.
func newTaint(key string, effect corev1.TaintEffect, now time.Time) corev1.Taint {
	if effect != corev1.TaintEffectNoExecute {
		return corev1.Taint{Key: key, Effect: effect}
	}
	t := meta.NewTime(now.UTC().Truncate(time.Second))
	return corev1.Taint{Key: key, Effect: effect, TimeAdded: &t}
}

func sameTaint(a, b corev1.Taint) bool {
	return a.Key == b.Key && a.Value == b.Value && a.Effect == b.Effect
}
