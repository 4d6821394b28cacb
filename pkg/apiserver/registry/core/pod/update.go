package pod

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// mutableFieldsDetail names the spec fields a pod update may change.
const mutableFieldsDetail = "pod updates may not change fields other than " +
	"`spec.containers[*].image`, `spec.initContainers[*].image`, " +
	"`spec.activeDeadlineSeconds` (set, or lowered), `spec.tolerations` (additions only; " +
	"tolerationSeconds may change), `spec.schedulingGates` (removals only), " +
	"`spec.nodeName` (set once, while empty) and `spec.terminationGracePeriodSeconds` " +
	"(from a negative value to 1)"

// validateUpdate checks the new pod as on create, then that its spec differs
// from the old one only where a pod may change.
func validateUpdate(pod, old *corev1.Pod) field.ErrorList {
	errs := validate(pod)
	sp := field.NewPath("spec")
	spec, oldSpec := &pod.Spec, &old.Spec
	if len(spec.Containers) != len(oldSpec.Containers) {
		return append(errs, field.Forbidden(sp.Child("containers"), "pod updates may not add or remove containers"))
	}
	if len(spec.InitContainers) != len(oldSpec.InitContainers) {
		return append(errs, field.Forbidden(sp.Child("initContainers"), "pod updates may not add or remove containers"))
	}
	errs = append(errs, validateDeadlineUpdate(spec.ActiveDeadlineSeconds, oldSpec.ActiveDeadlineSeconds, sp.Child("activeDeadlineSeconds"))...)
	errs = append(errs, validateTolerationsUpdate(spec.Tolerations, oldSpec.Tolerations, sp.Child("tolerations"))...)
	errs = append(errs, validateGatesUpdate(spec.SchedulingGates, oldSpec.SchedulingGates, sp.Child("schedulingGates"))...)
	if !sameJSON(withOldMutableFields(spec, oldSpec), oldSpec) {
		errs = append(errs, field.Forbidden(sp, mutableFieldsDetail))
	}
	return errs
}

// withOldMutableFields returns a copy of spec whose mutable fields are
// reset to their values in old; spec itself is left alone. Whatever still
// differs from old is a change a pod update may not make.
func withOldMutableFields(spec, old *corev1.PodSpec) *corev1.PodSpec {
	m := *spec
	m.Containers = withImages(spec.Containers, old.Containers)
	m.InitContainers = withImages(spec.InitContainers, old.InitContainers)
	m.ActiveDeadlineSeconds = old.ActiveDeadlineSeconds
	m.Tolerations = old.Tolerations
	m.SchedulingGates = old.SchedulingGates
	if old.NodeName == "" {
		m.NodeName = ""
	}
	if g, og := spec.TerminationGracePeriodSeconds, old.TerminationGracePeriodSeconds; og != nil && *og < 0 && g != nil && *g == 1 {
		m.TerminationGracePeriodSeconds = og
	}
	return &m
}

// withImages copies cs with the images of old; both have the same length.
func withImages(cs, old []corev1.Container) []corev1.Container {
	if cs == nil {
		return nil
	}
	out := make([]corev1.Container, len(cs))
	copy(out, cs)
	for i := range out {
		out[i].Image = old[i].Image
	}
	return out
}

// sameJSON compares two specs as they are serialized, so that an empty
// list and a missing one count as the same. Equal values serialize alike,
// so the usual case (an update that keeps the spec) is settled without
// encoding both.
func sameJSON(a, b *corev1.PodSpec) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	if errA != nil || errB != nil {
		return reflect.DeepEqual(a, b)
	}
	return bytes.Equal(ja, jb)
}

// validateDeadlineUpdate lets activeDeadlineSeconds be set, or lowered, but
// never raised or removed.
func validateDeadlineUpdate(cur, old *int64, p *field.Path) field.ErrorList {
	switch {
	case cur == nil && old != nil:
		return field.ErrorList{field.Invalid(p, nil, "must not update from a positive integer to nil value")}
	case cur == nil:
		return nil
	case *cur < 0 || *cur > math.MaxInt32:
		return field.ErrorList{field.Invalid(p, *cur, fmt.Sprintf("must be between 0 and %d, inclusive", math.MaxInt32))}
	case old != nil && *cur > *old:
		return field.ErrorList{field.Invalid(p, *cur, "must be less than or equal to previous value")}
	}
	return nil
}

// validateTolerationsUpdate requires every old toleration to remain; only
// its tolerationSeconds may change.
func validateTolerationsUpdate(cur, old []corev1.Toleration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, o := range old {
		found := false
		for _, c := range cur {
			o.TolerationSeconds = c.TolerationSeconds
			if reflect.DeepEqual(o, c) {
				found = true
				break
			}
		}
		if !found {
			errs = append(errs, field.Forbidden(p, "existing toleration can not be modified except its tolerationSeconds"))
		}
	}
	return errs
}

// validateGatesUpdate allows scheduling gates to be removed, never added.
func validateGatesUpdate(cur, old []corev1.PodSchedulingGate, p *field.Path) field.ErrorList {
	had := map[string]bool{}
	for _, g := range old {
		had[g.Name] = true
	}
	var errs field.ErrorList
	for i, g := range cur {
		if !had[g.Name] {
			errs = append(errs, field.Forbidden(p.Index(i), fmt.Sprintf("only deletion is allowed, but found new scheduling gate '%s'", g.Name)))
		}
	}
	return errs
}
