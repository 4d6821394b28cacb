package rbacvalidation

import (
	"testing"

	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func has(errs field.ErrorList, path string, typ field.Type) bool {
	for _, e := range errs {
		if e.Field == path && e.Type == typ {
			return true
		}
	}
	return false
}

func TestRules(t *testing.T) {
	tests := []struct {
		name       string
		rule       rbacv1.PolicyRule
		namespaced bool
		path       string
		typ        field.Type
	}{
		{"no verbs", rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"pods"}}, false, "rules[0].verbs", field.TypeRequired},
		{"urls in a Role", rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz"}}, true, "rules[0].nonResourceURLs", field.TypeInvalid},
		{"urls and resources", rbacv1.PolicyRule{Verbs: []string{"get"}, Resources: []string{"pods"}, NonResourceURLs: []string{"/x"}}, false, "rules[0].nonResourceURLs", field.TypeInvalid},
		{"no groups", rbacv1.PolicyRule{Verbs: []string{"get"}, Resources: []string{"pods"}}, false, "rules[0].apiGroups", field.TypeRequired},
		{"no resources", rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{""}}, true, "rules[0].resources", field.TypeRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := Rules([]rbacv1.PolicyRule{tt.rule}, tt.namespaced, field.NewPath("rules"))
			if !has(errs, tt.path, tt.typ) {
				t.Errorf("errors %v, want %s at %s", errs, tt.typ, tt.path)
			}
		})
	}
	ok := []rbacv1.PolicyRule{
		{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods"}},
		{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz/*"}},
	}
	if errs := Rules(ok, false, field.NewPath("rules")); len(errs) != 0 {
		t.Errorf("valid ClusterRole rules rejected: %v", errs)
	}
	if errs := AggregationRule(&rbacv1.AggregationRule{}, field.NewPath("aggregationRule")); !has(errs, "aggregationRule.clusterRoleSelectors", field.TypeRequired) {
		t.Errorf("empty aggregationRule: %v", errs)
	}
	bad := &rbacv1.AggregationRule{ClusterRoleSelectors: []meta.LabelSelector{{MatchLabels: map[string]string{"bad key!": "x"}}}}
	if errs := AggregationRule(bad, field.NewPath("aggregationRule")); len(errs) == 0 {
		t.Error("invalid selector accepted")
	}
}

func TestBindings(t *testing.T) {
	good := rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "r"}
	tests := []struct {
		name       string
		ref        rbacv1.RoleRef
		subjects   []rbacv1.Subject
		namespaced bool
		path       string
		typ        field.Type
	}{
		{"ref group", rbacv1.RoleRef{APIGroup: "x", Kind: "Role", Name: "r"}, nil, true, "roleRef.apiGroup", field.TypeNotSupported},
		{"ref kind", rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Pod", Name: "r"}, nil, true, "roleRef.kind", field.TypeNotSupported},
		{"cluster binding to a Role", good, nil, false, "roleRef.kind", field.TypeNotSupported},
		{"ref name", rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role"}, nil, true, "roleRef.name", field.TypeRequired},
		{"subject kind", good, []rbacv1.Subject{{Kind: "Robot", Name: "x"}}, true, "subjects[0].kind", field.TypeNotSupported},
		{"subject name", good, []rbacv1.Subject{{Kind: "User", APIGroup: rbacv1.GroupName}}, true, "subjects[0].name", field.TypeRequired},
		{"user group", good, []rbacv1.Subject{{Kind: "User", APIGroup: "x", Name: "a"}}, true, "subjects[0].apiGroup", field.TypeNotSupported},
		{"service account group", good, []rbacv1.Subject{{Kind: "ServiceAccount", APIGroup: "x", Name: "a"}}, true, "subjects[0].apiGroup", field.TypeNotSupported},
		{"service account name", good, []rbacv1.Subject{{Kind: "ServiceAccount", Name: "A_b"}}, true, "subjects[0].name", field.TypeInvalid},
		{"cluster service account without namespace", rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "r"},
			[]rbacv1.Subject{{Kind: "ServiceAccount", Name: "a"}}, false, "subjects[0].namespace", field.TypeRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := append(RoleRef(&tt.ref, tt.namespaced, field.NewPath("roleRef")), Subjects(tt.subjects, tt.namespaced, field.NewPath("subjects"))...)
			if !has(errs, tt.path, tt.typ) {
				t.Errorf("errors %v, want %s at %s", errs, tt.typ, tt.path)
			}
		})
	}
	other := good
	other.Name = "s"
	if errs := RoleRefUnchanged(&other, &good); !has(errs, "roleRef", field.TypeInvalid) {
		t.Errorf("roleRef change: %v", errs)
	}
	ref := rbacv1.RoleRef{Kind: "ClusterRole", Name: "view"}
	subjects := []rbacv1.Subject{{Kind: "User", Name: "a"}, {Kind: "Group", Name: "g"}, {Kind: "ServiceAccount", Name: "s"}}
	DefaultBinding(&ref, subjects)
	if ref.APIGroup != rbacv1.GroupName || subjects[0].APIGroup != rbacv1.GroupName || subjects[1].APIGroup != rbacv1.GroupName || subjects[2].APIGroup != "" {
		t.Errorf("defaults: %+v %+v", ref, subjects)
	}
	// The stock kubectl's create rolebinding names the group upstream's way.
	upstream := "rbac.authorization.k8s.io"
	ref = rbacv1.RoleRef{APIGroup: upstream, Kind: "Role", Name: "r"}
	subjects = []rbacv1.Subject{{Kind: "User", APIGroup: upstream, Name: "alice"}}
	DefaultBinding(&ref, subjects)
	if ref.APIGroup != rbacv1.GroupName || subjects[0].APIGroup != rbacv1.GroupName {
		t.Errorf("upstream group name not stored as the group's own: %+v %+v", ref, subjects)
	}
	if errs := append(RoleRef(&ref, true, field.NewPath("roleRef")), Subjects(subjects, true, field.NewPath("subjects"))...); len(errs) != 0 {
		t.Errorf("binding with the upstream group name refused: %v", errs)
	}
}
