package apiservice

import (
	"fmt"

	apiregv1 "platform.io/client/api/apiregistration/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Upstream's bounds of the two priorities.
const (
	maxGroupPriority   = 20000
	maxVersionPriority = 1000
)

// LocalGroups reports whether the API server serves a group itself.
type LocalGroups func(group string) bool

// Resource is the apiservices row. local tells the groups the server
// serves itself, which no service-backed APIService may claim; nil
// claims none.
func Resource(local LocalGroups) *registry.Resource {
	v := validator{local: local}
	return &registry.Resource{
		Group: apiregv1.GroupName, Version: "v1", Name: "apiservices", Singular: "apiservice", Kind: "APIService",
		Categories: []string{"api-extensions"},
		New:        func() meta.Object { return &apiregv1.APIService{} },
		HasStatus:  true,
		Strategy: registry.Typed[apiregv1.APIService]{
			ValidateFunc:       v.validate,
			ValidateUpdateFunc: v.validateUpdate,
		},
		Table: tableColumns,
	}
}

type validator struct{ local LocalGroups }

func (v validator) validateUpdate(s, _ *apiregv1.APIService) field.ErrorList {
	return v.validate(s)
}

// validate checks an APIService as upstream does: the name is
// version.group, the group a DNS subdomain (empty only for the core v1),
// the version a DNS label, both priorities positive and bounded; a local
// one has no TLS settings, a remote one names a Service and port and does
// not both trust a CA and skip verification. Its conditions have a type
// and a known status.
func (v validator) validate(s *apiregv1.APIService) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	if want := apiregv1.NameFor(s.Spec.Group, s.Spec.Version); s.Name != want {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), s.Name, fmt.Sprintf("must be `spec.version+\".\"+spec.group`: %q", want)))
	}
	switch {
	case s.Spec.Group == "" && s.Spec.Version != "v1":
		errs = append(errs, field.Required(spec.Child("group"), "only v1, the core group's version, may have an empty group"))
	case s.Spec.Group != "":
		for _, msg := range validation.IsDNS1123Subdomain(s.Spec.Group) {
			errs = append(errs, field.Invalid(spec.Child("group"), s.Spec.Group, msg))
		}
	}
	if s.Spec.Version == "" {
		errs = append(errs, field.Required(spec.Child("version"), ""))
	} else {
		for _, msg := range validation.IsDNS1035Label(s.Spec.Version) {
			errs = append(errs, field.Invalid(spec.Child("version"), s.Spec.Version, msg))
		}
	}
	if p := s.Spec.GroupPriorityMinimum; p <= 0 || p > maxGroupPriority {
		errs = append(errs, field.Invalid(spec.Child("groupPriorityMinimum"), p, fmt.Sprintf("must be positive and less than %d", maxGroupPriority)))
	}
	if p := s.Spec.VersionPriority; p <= 0 || p > maxVersionPriority {
		errs = append(errs, field.Invalid(spec.Child("versionPriority"), p, fmt.Sprintf("must be positive and less than %d", maxVersionPriority)))
	}
	errs = append(errs, v.validateService(s, spec)...)
	return append(errs, validateConditions(s.Status.Conditions)...)
}

func (v validator) validateService(s *apiregv1.APIService, spec *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.Spec.Service == nil {
		if len(s.Spec.CABundle) != 0 {
			errs = append(errs, field.Invalid(spec.Child("caBundle"), fmt.Sprintf("%d bytes", len(s.Spec.CABundle)), "local APIServices may not have a caBundle"))
		}
		if s.Spec.InsecureSkipTLSVerify {
			errs = append(errs, field.Invalid(spec.Child("insecureSkipTLSVerify"), true, "local APIServices may not have insecureSkipTLSVerify"))
		}
		return errs
	}
	svc := spec.Child("service")
	if s.Spec.Service.Namespace == "" {
		errs = append(errs, field.Required(svc.Child("namespace"), ""))
	}
	if s.Spec.Service.Name == "" {
		errs = append(errs, field.Required(svc.Child("name"), ""))
	}
	if p := s.Spec.Service.Port; p != nil && (*p < 1 || *p > 65535) {
		errs = append(errs, field.Invalid(svc.Child("port"), *p, "port is not valid: must be between 1 and 65535, inclusive"))
	}
	if s.Spec.InsecureSkipTLSVerify && len(s.Spec.CABundle) > 0 {
		errs = append(errs, field.Invalid(spec.Child("insecureSkipTLSVerify"), true, "may not be true if caBundle is present"))
	}
	if v.local != nil && v.local(s.Spec.Group) {
		errs = append(errs, field.Forbidden(svc, fmt.Sprintf("group %q is served by this API server itself and cannot be delegated", s.Spec.Group)))
	}
	return errs
}

func validateConditions(cs []apiregv1.APIServiceCondition) field.ErrorList {
	var errs field.ErrorList
	statuses := []apiregv1.ConditionStatus{apiregv1.ConditionTrue, apiregv1.ConditionFalse, apiregv1.ConditionUnknown}
	for i, c := range cs {
		p := field.NewPath("status", "conditions").Index(i)
		if c.Type == "" {
			errs = append(errs, field.Required(p.Child("type"), ""))
		}
		switch c.Status {
		case apiregv1.ConditionTrue, apiregv1.ConditionFalse, apiregv1.ConditionUnknown:
		default:
			errs = append(errs, field.NotSupported(p.Child("status"), c.Status, statuses))
		}
	}
	return errs
}
