package lease

import (
	"strings"

	coordinationv1 "platform.io/client/api/coordination/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the leases row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: coordinationv1.GroupName, Version: "v1", Name: "leases", Singular: "lease", Kind: "Lease",
		Namespaced: true,
		New:        func() meta.Object { return &coordinationv1.Lease{} },
		Strategy: registry.Typed[coordinationv1.Lease]{
			ValidateFunc:       func(l *coordinationv1.Lease) field.ErrorList { return validateSpec(&l.Spec) },
			ValidateUpdateFunc: func(l, _ *coordinationv1.Lease) field.ErrorList { return validateSpec(&l.Spec) },
		},
		AllowCreateOnUpdate:            true,
		RequireResourceVersionOnUpdate: false,
		Table:                          tableColumns,
	}
}

var strategies = []coordinationv1.CoordinatedLeaseStrategy{coordinationv1.OldestEmulationVersion}

func validateSpec(s *coordinationv1.LeaseSpec) field.ErrorList {
	p := field.NewPath("spec")
	var errs field.ErrorList
	if d := s.LeaseDurationSeconds; d != nil && *d <= 0 {
		errs = append(errs, field.Invalid(p.Child("leaseDurationSeconds"), *d, "must be greater than 0"))
	}
	if t := s.LeaseTransitions; t != nil && *t < 0 {
		errs = append(errs, field.Invalid(p.Child("leaseTransitions"), *t, "must be greater than or equal to 0"))
	}
	if s.Strategy != nil {
		errs = append(errs, validateStrategy(*s.Strategy, p.Child("strategy"))...)
	}
	if s.PreferredHolder != nil && *s.PreferredHolder != "" && (s.Strategy == nil || *s.Strategy == "") {
		errs = append(errs, field.Forbidden(p.Child("preferredHolder"), "may only be specified if `strategy` is defined"))
	}
	return errs
}

// validateStrategy accepts a built-in strategy name or a domain-qualified one.
func validateStrategy(s coordinationv1.CoordinatedLeaseStrategy, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !strings.Contains(string(s), "/") {
		for _, known := range strategies {
			if s == known {
				return nil
			}
		}
		return field.ErrorList{field.NotSupported(p, s, strategies)}
	}
	for _, msg := range validation.IsQualifiedName(string(s)) {
		errs = append(errs, field.Invalid(p, string(s), msg))
	}
	return errs
}
