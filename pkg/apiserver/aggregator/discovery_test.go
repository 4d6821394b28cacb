package aggregator

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	apiregv1 "platform.io/client/api/apiregistration/v1"
)

func TestCompareVersions(t *testing.T) {
	// Highest first, as discovery lists them.
	ordered := []string{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2", "foo1", "foo10"}
	for i := range ordered {
		for j := range ordered {
			want := 0
			switch {
			case i < j:
				want = 1
			case i > j:
				want = -1
			}
			if got := CompareVersions(ordered[i], ordered[j]); got != want {
				t.Errorf("CompareVersions(%q, %q) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func svc(group, version string, groupPriority, versionPriority int32) *apiregv1.APIService {
	return &apiregv1.APIService{Spec: apiregv1.APIServiceSpec{
		Service: &apiregv1.ServiceReference{Namespace: "ns", Name: "s"},
		Group:   group, Version: version, GroupPriorityMinimum: groupPriority, VersionPriority: versionPriority,
	}}
}

func TestSortGroups(t *testing.T) {
	tests := []struct {
		name string
		in   []*apiregv1.APIService
		want [][]string // group/version, per group, preferred first
	}{
		{"group priority, then name",
			[]*apiregv1.APIService{svc("b.io", "v1", 100, 10), svc("a.io", "v1", 100, 10), svc("c.io", "v1", 2000, 10)},
			[][]string{{"c.io/v1"}, {"a.io/v1"}, {"b.io/v1"}}},
		{"a group ranks by its highest minimum",
			[]*apiregv1.APIService{svc("a.io", "v1", 100, 10), svc("b.io", "v1", 200, 10), svc("a.io", "v2", 300, 10)},
			[][]string{{"a.io/v2", "a.io/v1"}, {"b.io/v1"}}},
		{"version priority over version order",
			[]*apiregv1.APIService{svc("a.io", "v2", 100, 5), svc("a.io", "v1beta1", 100, 20), svc("a.io", "v1", 100, 20)},
			[][]string{{"a.io/v1", "a.io/v1beta1", "a.io/v2"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got [][]string
			for _, versions := range sortGroups(tc.in) {
				g := apiGroup(versions)
				var gvs []string
				for _, v := range g.Versions {
					gvs = append(gvs, v.GroupVersion)
				}
				if g.PreferredVersion != g.Versions[0] {
					t.Errorf("%s: preferred %v, want the first version", g.Name, g.PreferredVersion)
				}
				got = append(got, gvs)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}
