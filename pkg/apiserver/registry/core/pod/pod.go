package pod

import (
	"strconv"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/podspec"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the pods row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: "", Version: "v1", Name: "pods", Singular: "pod", Kind: "Pod",
		ShortNames: []string{"po"},
		Categories: []string{"all"},
		Namespaced: true,
		New:        func() meta.Object { return &corev1.Pod{} },
		HasStatus:  true,
		Strategy: registry.Typed[corev1.Pod]{
			DefaultFunc:          Default,
			PrepareForCreateFunc: prepareForCreate,
			PrepareForUpdateFunc: prepareForUpdate,
			ValidateFunc:         validate,
			ValidateUpdateFunc:   validateUpdate,
			GracePeriodFunc:      gracePeriod,
		},
		Actions:          map[string]registry.Action{"binding": bind},
		SelectableFields: selectableFields,
		Table:            tableColumns,
	}
}

// Default applies the pod spec defaults and those upstream gives Pod
// objects only: requests copied from limits, enableServiceLinks, and host
// ports equal to container ports under hostNetwork.
func Default(pod *corev1.Pod) {
	spec := &pod.Spec
	podspec.DefaultPodSpec(spec)
	for _, cs := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range cs {
			defaultRequests(&cs[i].Resources)
			if spec.HostNetwork {
				for j := range cs[i].Ports {
					if cs[i].Ports[j].HostPort == 0 {
						cs[i].Ports[j].HostPort = cs[i].Ports[j].ContainerPort
					}
				}
			}
		}
	}
	if spec.EnableServiceLinks == nil {
		v := corev1.DefaultEnableServiceLinks
		spec.EnableServiceLinks = &v
	}
}

// defaultRequests sets every request that is missing to its limit.
func defaultRequests(r *corev1.ResourceRequirements) {
	if len(r.Limits) == 0 {
		return
	}
	if r.Requests == nil {
		r.Requests = corev1.ResourceList{}
	}
	for name, q := range r.Limits {
		if _, ok := r.Requests[name]; !ok {
			r.Requests[name] = q
		}
	}
}

func prepareForCreate(pod *corev1.Pod) {
	pod.Status = corev1.PodStatus{Phase: corev1.PodPending, QOSClass: QOSClass(pod)}
	if len(pod.Spec.SchedulingGates) > 0 {
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{
			Type:    corev1.PodScheduled,
			Status:  corev1.ConditionFalse,
			Reason:  corev1.PodReasonSchedulingGated,
			Message: "Scheduling is blocked due to non-empty scheduling gates",
		})
	}
	mergeMatchLabelKeys(pod)
}

// prepareForUpdate records the scheduling of a pod whose node is set by
// this update (the binding subresource does so). Status has already been
// carried over from the stored pod.
func prepareForUpdate(pod, old *corev1.Pod) {
	if old.Spec.NodeName == "" && pod.Spec.NodeName != "" {
		setCondition(&pod.Status, corev1.PodCondition{
			Type:               corev1.PodScheduled,
			Status:             corev1.ConditionTrue,
			LastTransitionTime: meta.Now(),
		})
	}
}

// setCondition replaces the condition of the same type, or appends c.
func setCondition(st *corev1.PodStatus, c corev1.PodCondition) {
	for i := range st.Conditions {
		if st.Conditions[i].Type == c.Type {
			if st.Conditions[i].Status == c.Status {
				c.LastTransitionTime = st.Conditions[i].LastTransitionTime
			}
			st.Conditions[i] = c
			return
		}
	}
	st.Conditions = append(st.Conditions, c)
}

// mergeMatchLabelKeys folds the pod's values of the label keys named by
// matchLabelKeys (and mismatchLabelKeys) into the label selectors of its
// affinity terms and topology spread constraints, as upstream does on create.
func mergeMatchLabelKeys(pod *corev1.Pod) {
	merge := func(sel *meta.LabelSelector, keys []string, op meta.LabelSelectorOperator) {
		if sel == nil {
			return
		}
		for _, k := range keys {
			if v, ok := pod.Labels[k]; ok {
				sel.MatchExpressions = append(sel.MatchExpressions, meta.LabelSelectorRequirement{Key: k, Operator: op, Values: []string{v}})
			}
		}
	}
	term := func(t *corev1.PodAffinityTerm) {
		merge(t.LabelSelector, t.MatchLabelKeys, meta.LabelSelectorOpIn)
		merge(t.LabelSelector, t.MismatchLabelKeys, meta.LabelSelectorOpNotIn)
	}
	if a := pod.Spec.Affinity; a != nil {
		for _, pa := range []*corev1.PodAffinity{a.PodAffinity, (*corev1.PodAffinity)(a.PodAntiAffinity)} {
			if pa == nil {
				continue
			}
			for i := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
				term(&pa.RequiredDuringSchedulingIgnoredDuringExecution[i])
			}
			for i := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
				term(&pa.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
			}
		}
	}
	for i := range pod.Spec.TopologySpreadConstraints {
		c := &pod.Spec.TopologySpreadConstraints[i]
		merge(c.LabelSelector, c.MatchLabelKeys, meta.LabelSelectorOpIn)
	}
}

// validate checks a pod: its spec, plus the rules pods add to templates.
func validate(pod *corev1.Pod) field.ErrorList {
	sp := field.NewPath("spec")
	errs := podspec.ValidatePodSpec(&pod.Spec, sp)
	for i, c := range pod.Spec.InitContainers {
		errs = append(errs, podspec.ValidateImageForPod(c.Image, sp.Child("initContainers").Index(i).Child("image"))...)
	}
	for i, c := range pod.Spec.Containers {
		errs = append(errs, podspec.ValidateImageForPod(c.Image, sp.Child("containers").Index(i).Child("image"))...)
	}
	for i, v := range pod.Spec.Volumes {
		if v.Image != nil && v.Image.Reference == "" {
			errs = append(errs, field.Required(sp.Child("volumes").Index(i).Child("image", "reference"), ""))
		}
	}
	return errs
}

func selectableFields(obj meta.Object) map[string]string {
	pod := obj.(*corev1.Pod)
	podIP := pod.Status.PodIP
	if len(pod.Status.PodIPs) > 0 {
		podIP = pod.Status.PodIPs[0].IP
	}
	return map[string]string{
		"spec.nodeName":            pod.Spec.NodeName,
		"spec.restartPolicy":       string(pod.Spec.RestartPolicy),
		"spec.schedulerName":       pod.Spec.SchedulerName,
		"spec.serviceAccountName":  pod.Spec.ServiceAccountName,
		"spec.hostNetwork":         strconv.FormatBool(pod.Spec.HostNetwork),
		"status.phase":             string(pod.Status.Phase),
		"status.podIP":             podIP,
		"status.nominatedNodeName": pod.Status.NominatedNodeName,
	}
}
