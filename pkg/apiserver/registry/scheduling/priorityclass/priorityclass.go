package priorityclass

import (
	"fmt"
	"reflect"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	schedulingv1 "platform.io/client/api/scheduling/v1"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the priorityclasses row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: schedulingv1.GroupName, Version: "v1", Name: "priorityclasses", Singular: "priorityclass", Kind: "PriorityClass",
		ShortNames: []string{"pc"},
		New:        func() meta.Object { return &schedulingv1.PriorityClass{} },
		Strategy: registry.Typed[schedulingv1.PriorityClass]{
			DefaultFunc:        setDefaults,
			ValidateFunc:       Validate,
			ValidateUpdateFunc: ValidateUpdate,
		},
		Table: tableColumns,
	}
}

// setDefaults gives a class without a preemption policy upstream's default.
func setDefaults(pc *schedulingv1.PriorityClass) {
	if pc.PreemptionPolicy == nil {
		p := corev1.PreemptLowerPriority
		pc.PreemptionPolicy = &p
	}
}

// Validate checks a class: a name with the system prefix must be one of
// the built-in classes, with its value and globalDefault; any other class
// may not go above the highest user-definable value.
func Validate(pc *schedulingv1.PriorityClass) field.ErrorList {
	var errs field.ErrorList
	if strings.HasPrefix(pc.Name, schedulingv1.SystemPriorityClassPrefix) {
		if err := checkSystemClass(pc); err != nil {
			errs = append(errs, field.Forbidden(field.NewPath("metadata", "name"),
				"priority class names with '"+schedulingv1.SystemPriorityClassPrefix+"' prefix are reserved for system use only. error: "+err.Error()))
		}
	} else if pc.Value > schedulingv1.HighestUserDefinablePriority {
		errs = append(errs, field.Forbidden(field.NewPath("value"),
			fmt.Sprintf("maximum allowed value of a user defined priority is %d", schedulingv1.HighestUserDefinablePriority)))
	}
	if p := pc.PreemptionPolicy; p != nil && *p != corev1.PreemptLowerPriority && *p != corev1.PreemptNever {
		errs = append(errs, field.NotSupported(field.NewPath("preemptionPolicy"), *p, []corev1.PreemptionPolicy{corev1.PreemptLowerPriority, corev1.PreemptNever}))
	}
	return errs
}

// checkSystemClass reports why pc is not a built-in class as defined.
func checkSystemClass(pc *schedulingv1.PriorityClass) error {
	spc, ok := schedulingv1.SystemPriorityClass(pc.Name)
	switch {
	case !ok:
		return fmt.Errorf("%s is not a known system priority class", pc.Name)
	case spc.Value != pc.Value:
		return fmt.Errorf("value of %s PriorityClass must be %d", spc.Name, spc.Value)
	case spc.GlobalDefault != pc.GlobalDefault:
		return fmt.Errorf("globalDefault of %s PriorityClass must be %t", spc.Name, spc.GlobalDefault)
	}
	return nil
}

// ValidateUpdate checks an update: the class must still be valid, and its
// value and preemption policy cannot change.
func ValidateUpdate(pc, old *schedulingv1.PriorityClass) field.ErrorList {
	errs := Validate(pc)
	if pc.Value != old.Value {
		errs = append(errs, field.Forbidden(field.NewPath("value"), "may not be changed in an update."))
	}
	if !reflect.DeepEqual(pc.PreemptionPolicy, old.PreemptionPolicy) {
		errs = append(errs, field.Invalid(field.NewPath("preemptionPolicy"), pc.PreemptionPolicy, "field is immutable"))
	}
	return errs
}
