package daemonset

import (
	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// nodeNameField is the only field a node selector's matchFields may use.
const nodeNameField = "metadata.name"

// withDefaultTolerations adds to pod the tolerations every daemon pod
// has, as upstream: it stays on not-ready and unreachable nodes (NoExecute,
// no time limit), lands on nodes under disk, memory or PID pressure and on
// unschedulable ones, and, with hostNetwork, on nodes whose network is not
// set up yet. Tolerations the template already has are not repeated.
func withDefaultTolerations(pod *corev1.Pod) {
	add := func(key string, effect corev1.TaintEffect) {
		t := corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists, Effect: effect}
		for _, have := range pod.Spec.Tolerations {
			if have.Key == t.Key && have.Operator == t.Operator && have.Effect == t.Effect && have.TolerationSeconds == nil {
				return
			}
		}
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, t)
	}
	add(corev1.TaintNodeNotReady, corev1.TaintEffectNoExecute)
	add(corev1.TaintNodeUnreachable, corev1.TaintEffectNoExecute)
	add(corev1.TaintNodeDiskPressure, corev1.TaintEffectNoSchedule)
	add(corev1.TaintNodeMemoryPressure, corev1.TaintEffectNoSchedule)
	add(corev1.TaintNodePIDPressure, corev1.TaintEffectNoSchedule)
	add(corev1.TaintNodeUnschedulable, corev1.TaintEffectNoSchedule)
	if pod.Spec.HostNetwork {
		add(corev1.TaintNodeNetworkUnavailable, corev1.TaintEffectNoSchedule)
	}
}

// withNodeAffinity pins pod to node: its required node affinity becomes
// the single term matchFields metadata.name In [node], which the scheduler
// honours. The node is already known to fit the template's own selector
// and affinity.
func withNodeAffinity(pod *corev1.Pod, node string) {
	term := corev1.NodeSelectorTerm{MatchFields: []corev1.NodeSelectorRequirement{{
		Key: nodeNameField, Operator: corev1.NodeSelectorOpIn, Values: []string{node},
	}}}
	if pod.Spec.Affinity == nil {
		pod.Spec.Affinity = &corev1.Affinity{}
	}
	if pod.Spec.Affinity.NodeAffinity == nil {
		pod.Spec.Affinity.NodeAffinity = &corev1.NodeAffinity{}
	}
	pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{term},
	}
}

// targetNode is the node a daemon pod is on or meant for: its nodeName,
// else the node its matchFields affinity names.
func targetNode(pod *corev1.Pod) string {
	if pod.Spec.NodeName != "" {
		return pod.Spec.NodeName
	}
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, f := range term.MatchFields {
			if f.Key == nodeNameField && f.Operator == corev1.NodeSelectorOpIn && len(f.Values) == 1 {
				return f.Values[0]
			}
		}
	}
	return ""
}

// fit says whether a DaemonSet's pod belongs on a node: shouldRun when a
// new pod should be placed there, shouldContinue when an existing pod may
// stay (NoSchedule taints added later do not evict it).
type fit struct {
	shouldRun, shouldContinue bool
}

// fitter decides fit for one DaemonSet; it holds the template's pod with
// the default tolerations, built once for all nodes.
type fitter struct {
	pod *corev1.Pod
}

func newFitter(ds *appsv1.DaemonSet) *fitter {
	pod := &corev1.Pod{Spec: podcontrol.Clone(&ds.Spec.Template).Spec}
	withDefaultTolerations(pod)
	return &fitter{pod: pod}
}

// fit decides for node: the template's nodeName, if any, must be node;
// its nodeSelector and required node affinity must match; and no
// NoExecute taint (for both) or NoSchedule taint (for shouldRun) may go
// untolerated.
func (f *fitter) fit(node *corev1.Node) fit {
	if f.pod.Spec.NodeName != "" && f.pod.Spec.NodeName != node.Name {
		return fit{}
	}
	if !corev1.RequiredNodeAffinityMatches(f.pod, node) {
		return fit{}
	}
	tols := f.pod.Spec.Tolerations
	if _, bad := corev1.FindUntoleratedTaint(node.Spec.Taints, tols, func(t *corev1.Taint) bool {
		return t.Effect == corev1.TaintEffectNoExecute
	}); bad {
		return fit{}
	}
	_, bad := corev1.FindUntoleratedTaint(node.Spec.Taints, tols, func(t *corev1.Taint) bool {
		return t.Effect == corev1.TaintEffectNoSchedule
	})
	return fit{shouldRun: !bad, shouldContinue: true}
}
