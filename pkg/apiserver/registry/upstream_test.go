package registry

import (
	"context"
	"testing"

	"platform.io/client/api/meta"
)

func TestWithUpstreamAliases(t *testing.T) {
	stored := &Resource{Group: "rbac.authorization.platform.io", Version: "v1", Name: "roles", ShortNames: []string{"ro"}, Categories: []string{"rbac"}}
	virtual := &Resource{Group: "authorization.platform.io", Version: "v1", Name: "subjectaccessreviews",
		Virtual: func(context.Context, meta.Object) (meta.Object, error) { return nil, nil }}
	other := &Resource{Group: "apps", Version: "v1", Name: "deployments"}
	rows := WithUpstreamAliases([]*Resource{stored, virtual, other})
	if len(rows) != 5 {
		t.Fatalf("got %d rows, want the 3 given and 2 aliases", len(rows))
	}
	role, sar := rows[3], rows[4]
	if role.Group != "rbac.authorization.k8s.io" || role.Storage != stored {
		t.Errorf("role alias: group %q, stored as %p; want rbac.authorization.k8s.io stored as the row", role.Group, role.Storage)
	}
	if sar.Group != "authorization.k8s.io" || sar.Storage != nil || sar.Virtual == nil {
		t.Errorf("review alias: group %q, storage %v, virtual %v", sar.Group, sar.Storage, sar.Virtual != nil)
	}
	if len(role.ShortNames)+len(role.Categories) != 0 {
		t.Errorf("role alias keeps short names %v and categories %v, which kubectl would find in both groups", role.ShortNames, role.Categories)
	}
	if stored.Group != "rbac.authorization.platform.io" || len(stored.ShortNames) != 1 || len(stored.Categories) != 1 {
		t.Error("the original row changed")
	}
}

func TestCanonicalGroup(t *testing.T) {
	for in, want := range map[string]string{
		"rbac.authorization.k8s.io":      "rbac.authorization.platform.io",
		"authorization.k8s.io":           "authorization.platform.io",
		"authentication.k8s.io":          "authentication.platform.io",
		"scheduling.k8s.io":              "scheduling.platform.io",
		"apiregistration.k8s.io":         "apiregistration.platform.io",
		"rbac.authorization.platform.io": "rbac.authorization.platform.io",
		"apps":                           "apps",
		"":                               "",
		"coordination.k8s.io":            "coordination.k8s.io",
	} {
		if got := CanonicalGroup(in); got != want {
			t.Errorf("CanonicalGroup(%q) = %q, want %q", in, got, want)
		}
	}
}
