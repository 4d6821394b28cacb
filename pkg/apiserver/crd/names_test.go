package crd

import (
	"testing"

	apiextv1 "platform.io/client/api/apiextensions/v1"

	"platform.io/platform/pkg/apiserver/registry"
)

func TestAcceptNames(t *testing.T) {
	crd := func(group, plural, kind string, short ...string) *apiextv1.CustomResourceDefinition {
		n := apiextv1.CustomResourceDefinitionNames{Plural: plural, Singular: plural[:len(plural)-1], Kind: kind, ListKind: kind + "List", ShortNames: short}
		c := &apiextv1.CustomResourceDefinition{Spec: apiextv1.CustomResourceDefinitionSpec{Group: group, Names: n}}
		c.Name = plural + "." + group
		c.Status.AcceptedNames = n
		return c
	}
	builtin := []*registry.Resource{{Group: "apps", Name: "deployments", Singular: "deployment", Kind: "Deployment", ShortNames: []string{"deploy"}}}
	cases := []struct {
		name   string
		crd    *apiextv1.CustomResourceDefinition
		others []*apiextv1.CustomResourceDefinition
		reason string
	}{
		{"alone", crd("a.io", "foos", "Foo"), nil, ""},
		{"same names in another group", crd("a.io", "foos", "Foo"), []*apiextv1.CustomResourceDefinition{crd("b.io", "foos", "Foo")}, ""},
		{"plural is another's short name", crd("a.io", "foos", "Foo"), []*apiextv1.CustomResourceDefinition{crd("a.io", "bars", "Bar", "foos")}, "PluralConflict"},
		{"kind taken", crd("a.io", "foos", "Foo"), []*apiextv1.CustomResourceDefinition{crd("a.io", "bars", "Foo")}, "KindConflict"},
		{"short name is another's plural", crd("a.io", "foos", "Foo", "bars"), []*apiextv1.CustomResourceDefinition{crd("a.io", "bars", "Bar")}, "ShortNamesConflict"},
		{"built-in plural", crd("apps", "deployments", "MyDeployment"), nil, "PluralConflict"},
		{"built-in short name", crd("apps", "mydeps", "MyDep", "deploy"), nil, "ShortNamesConflict"},
		{"built-in list kind", crd("apps", "mydeps", "Deployment"), nil, "KindConflict"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok, reason, _ := acceptNames(tc.crd, tc.others, builtin)
			if ok != (tc.reason == "") || reason != tc.reason {
				t.Errorf("accepted %v with reason %q, want reason %q", ok, reason, tc.reason)
			}
		})
	}
}
