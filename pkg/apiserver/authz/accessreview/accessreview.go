package accessreview

import (
	authzv1 "platform.io/client/api/authorization/v1"
	authzv1beta1 "platform.io/client/api/authorization/v1beta1"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/validation/field"
	"platform.io/platform/pkg/component/authn"
)

// Attributes are the attributes of the action ra or nra (exactly one is
// set) done by u.
func Attributes(u *authn.User, ra *authzv1.ResourceAttributes, nra *authzv1.NonResourceAttributes) authz.Attributes {
	if ra != nil {
		return authz.Attributes{
			User: u, Verb: ra.Verb, ResourceRequest: true,
			APIGroup: ra.Group, APIVersion: ra.Version, Resource: ra.Resource,
			Subresource: ra.Subresource, Namespace: ra.Namespace, Name: ra.Name,
		}
	}
	a := authz.Attributes{User: u}
	if nra != nil {
		a.Verb, a.Path = nra.Verb, nra.Path
	}
	return a
}

// User is the user a spec names.
func User(spec *authzv1.SubjectAccessReviewSpec) *authn.User {
	u := &authn.User{Name: spec.User, UID: spec.UID, Groups: spec.Groups}
	for k, v := range spec.Extra {
		if u.Extra == nil {
			u.Extra = map[string][]string{}
		}
		u.Extra[k] = v
	}
	return u
}

// Spec is the review of a: its user and its resource or non-resource
// attributes.
func Spec(a authz.Attributes) authzv1.SubjectAccessReviewSpec {
	var spec authzv1.SubjectAccessReviewSpec
	if u := a.User; u != nil {
		spec.User, spec.UID, spec.Groups = u.Name, u.UID, u.Groups
		for k, v := range u.Extra {
			if spec.Extra == nil {
				spec.Extra = map[string]authzv1.ExtraValue{}
			}
			spec.Extra[k] = v
		}
	}
	if a.ResourceRequest {
		spec.ResourceAttributes = &authzv1.ResourceAttributes{
			Namespace: a.Namespace, Verb: a.Verb, Group: a.APIGroup, Version: a.APIVersion,
			Resource: a.Resource, Subresource: a.Subresource, Name: a.Name,
		}
	} else {
		spec.NonResourceAttributes = &authzv1.NonResourceAttributes{Path: a.Path, Verb: a.Verb}
	}
	return spec
}

// Status is the review answer of an authorizer's decision.
func Status(d authz.Decision, reason string, err error) authzv1.SubjectAccessReviewStatus {
	st := authzv1.SubjectAccessReviewStatus{Allowed: d == authz.Allow, Denied: d == authz.Deny, Reason: reason}
	if err != nil {
		st.EvaluationError = err.Error()
	}
	return st
}

// Decision reads a review answer: allowed wins over denied, and neither
// is no opinion.
func Decision(st authzv1.SubjectAccessReviewStatus) authz.Decision {
	switch {
	case st.Allowed:
		return authz.Allow
	case st.Denied:
		return authz.Deny
	}
	return authz.NoOpinion
}

// SpecToV1beta1 converts a v1 spec to v1beta1.
func SpecToV1beta1(s authzv1.SubjectAccessReviewSpec) authzv1beta1.SubjectAccessReviewSpec {
	out := authzv1beta1.SubjectAccessReviewSpec{User: s.User, Groups: s.Groups, UID: s.UID}
	if s.ResourceAttributes != nil {
		ra := authzv1beta1.ResourceAttributes(*s.ResourceAttributes)
		out.ResourceAttributes = &ra
	}
	if s.NonResourceAttributes != nil {
		nra := authzv1beta1.NonResourceAttributes(*s.NonResourceAttributes)
		out.NonResourceAttributes = &nra
	}
	if s.Extra != nil {
		out.Extra = make(map[string]authzv1beta1.ExtraValue, len(s.Extra))
		for k, v := range s.Extra {
			out.Extra[k] = authzv1beta1.ExtraValue(v)
		}
	}
	return out
}

// SpecFromV1beta1 converts a v1beta1 spec to v1.
func SpecFromV1beta1(s authzv1beta1.SubjectAccessReviewSpec) authzv1.SubjectAccessReviewSpec {
	out := authzv1.SubjectAccessReviewSpec{User: s.User, Groups: s.Groups, UID: s.UID}
	if s.ResourceAttributes != nil {
		ra := authzv1.ResourceAttributes(*s.ResourceAttributes)
		out.ResourceAttributes = &ra
	}
	if s.NonResourceAttributes != nil {
		nra := authzv1.NonResourceAttributes(*s.NonResourceAttributes)
		out.NonResourceAttributes = &nra
	}
	if s.Extra != nil {
		out.Extra = make(map[string]authzv1.ExtraValue, len(s.Extra))
		for k, v := range s.Extra {
			out.Extra[k] = authzv1.ExtraValue(v)
		}
	}
	return out
}

// StatusToV1beta1 and StatusFromV1beta1 convert answers; the two versions
// have the same fields.
func StatusToV1beta1(s authzv1.SubjectAccessReviewStatus) authzv1beta1.SubjectAccessReviewStatus {
	return authzv1beta1.SubjectAccessReviewStatus(s)
}

// StatusFromV1beta1 converts a v1beta1 answer to v1.
func StatusFromV1beta1(s authzv1beta1.SubjectAccessReviewStatus) authzv1.SubjectAccessReviewStatus {
	return authzv1.SubjectAccessReviewStatus(s)
}

// Validate checks that exactly one of ra and nra is set, the shape every
// access review's spec must have.
func Validate(spec *field.Path, ra *authzv1.ResourceAttributes, nra *authzv1.NonResourceAttributes) field.ErrorList {
	switch {
	case ra == nil && nra == nil:
		return field.ErrorList{field.Invalid(spec.Child("resourceAttributes"), ra, "exactly one of nonResourceAttributes or resourceAttributes must be specified")}
	case ra != nil && nra != nil:
		return field.ErrorList{field.Invalid(spec.Child("nonResourceAttributes"), nra, "cannot be specified in combination with resourceAttributes")}
	}
	return nil
}
