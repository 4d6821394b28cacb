// Package selfsubjectrulesreview is the registry row of
// authorization.platform.io/v1 SelfSubjectRulesReview: the rules the
// requesting user holds in a namespace (kubectl auth can-i --list), as the
// authorizers that can enumerate rules list them. The list is incomplete
// when one cannot; it is meant for display, never for authorization
// decisions. Nothing is stored.
package selfsubjectrulesreview

import (
	"context"

	authzv1 "platform.io/client/api/authorization/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/component/authn"
)

// Resource is the selfsubjectrulesreviews row, answered by rules.
func Resource(rules authz.RuleResolver) *registry.Resource {
	return &registry.Resource{
		Group: authzv1.GroupName, Version: "v1", Name: "selfsubjectrulesreviews", Singular: "selfsubjectrulesreview", Kind: "SelfSubjectRulesReview",
		New:      func() meta.Object { return &authzv1.SelfSubjectRulesReview{} },
		NameFunc: func(string) []string { return nil },
		Strategy: registry.Typed[authzv1.SelfSubjectRulesReview]{},
		Virtual: func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			r := obj.(*authzv1.SelfSubjectRulesReview)
			u, ok := authn.UserFrom(ctx)
			if !ok {
				return nil, apierrors.NewBadRequest("no user present on request")
			}
			if r.Spec.Namespace == "" {
				return nil, apierrors.NewBadRequest("no namespace on request")
			}
			rr, nr, incomplete, err := rules.RulesFor(ctx, u, r.Spec.Namespace)
			r.Status = Status(rr, nr, incomplete, err)
			return r, nil
		},
	}
}

// Status is the wire form of a rule list. The lists are never nil, so
// they are written as [] rather than null, as upstream's are.
func Status(rr []authz.ResourceRule, nr []authz.NonResourceRule, incomplete bool, err error) authzv1.SubjectRulesReviewStatus {
	st := authzv1.SubjectRulesReviewStatus{
		ResourceRules:    make([]authzv1.ResourceRule, 0, len(rr)),
		NonResourceRules: make([]authzv1.NonResourceRule, 0, len(nr)),
		Incomplete:       incomplete,
	}
	for _, r := range rr {
		st.ResourceRules = append(st.ResourceRules, authzv1.ResourceRule{Verbs: r.Verbs, APIGroups: r.APIGroups, Resources: r.Resources, ResourceNames: r.ResourceNames})
	}
	for _, r := range nr {
		st.NonResourceRules = append(st.NonResourceRules, authzv1.NonResourceRule{Verbs: r.Verbs, NonResourceURLs: r.NonResourceURLs})
	}
	if err != nil {
		st.EvaluationError = err.Error()
	}
	return st
}
