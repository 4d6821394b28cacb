package quota

import (
	"slices"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// Matches reports whether obj, an object of gr, falls under quota q: a
// quota without scopes covers every object; scopes (and scope selector
// expressions) describe pods only, so a scoped quota covers pods that
// match every one of them and nothing else.
func Matches(q *corev1.ResourceQuota, gr meta.GroupResource, obj meta.Object) bool {
	reqs := selectorOf(q)
	if len(reqs) == 0 {
		return true
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok || gr.Group != "" || gr.Resource != "pods" {
		return false
	}
	for _, r := range reqs {
		if !podMatches(pod, r) {
			return false
		}
	}
	return true
}

// selectorOf folds spec.scopes into the selector's expressions, each as
// an Exists requirement, as upstream does.
func selectorOf(q *corev1.ResourceQuota) []corev1.ScopedResourceSelectorRequirement {
	var out []corev1.ScopedResourceSelectorRequirement
	for _, s := range q.Spec.Scopes {
		out = append(out, corev1.ScopedResourceSelectorRequirement{ScopeName: s, Operator: corev1.ScopeSelectorOpExists})
	}
	if q.Spec.ScopeSelector != nil {
		out = append(out, q.Spec.ScopeSelector.MatchExpressions...)
	}
	return out
}

// podMatches reports whether a pod meets one scope requirement.
func podMatches(pod *corev1.Pod, r corev1.ScopedResourceSelectorRequirement) bool {
	switch r.ScopeName {
	case corev1.ResourceQuotaScopeTerminating:
		return pod.Spec.ActiveDeadlineSeconds != nil && *pod.Spec.ActiveDeadlineSeconds >= 0
	case corev1.ResourceQuotaScopeNotTerminating:
		return pod.Spec.ActiveDeadlineSeconds == nil
	case corev1.ResourceQuotaScopeBestEffort:
		return isBestEffort(pod)
	case corev1.ResourceQuotaScopeNotBestEffort:
		return !isBestEffort(pod)
	case corev1.ResourceQuotaScopePriorityClass:
		return priorityMatches(pod.Spec.PriorityClassName, r)
	case corev1.ResourceQuotaScopeCrossNamespacePodAffinity:
		return crossNamespaceAffinity(pod)
	}
	return false
}

// priorityMatches applies a PriorityClass requirement to a pod's class
// name; a pod without one has no value for Exists to find.
func priorityMatches(class string, r corev1.ScopedResourceSelectorRequirement) bool {
	switch r.Operator {
	case corev1.ScopeSelectorOpExists:
		return class != ""
	case corev1.ScopeSelectorOpDoesNotExist:
		return class == ""
	case corev1.ScopeSelectorOpIn:
		return slices.Contains(r.Values, class)
	case corev1.ScopeSelectorOpNotIn:
		return !slices.Contains(r.Values, class)
	}
	return false
}

// crossNamespaceAffinity reports whether any pod (anti-)affinity term of
// the pod names other namespaces or selects namespaces by label.
func crossNamespaceAffinity(pod *corev1.Pod) bool {
	a := pod.Spec.Affinity
	if a == nil {
		return false
	}
	var terms []corev1.PodAffinityTerm
	if a.PodAffinity != nil {
		terms = append(terms, a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution...)
		for _, w := range a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			terms = append(terms, w.PodAffinityTerm)
		}
	}
	if a.PodAntiAffinity != nil {
		terms = append(terms, a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution...)
		for _, w := range a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			terms = append(terms, w.PodAffinityTerm)
		}
	}
	for _, t := range terms {
		if len(t.Namespaces) > 0 || t.NamespaceSelector != nil {
			return true
		}
	}
	return false
}
