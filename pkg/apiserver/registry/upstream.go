package registry

// upstreamGroups maps a group to the upstream name it is also served
// under. The stock kubectl and upstream components reach these groups by
// names compiled into them (kubectl create role, auth can-i, auth whoami,
// create token, create priorityclass), and real-world manifests name them
// (an aggregated server's APIService manifest names apiregistration.k8s.io, a CRD manifest apiextensions.k8s.io); everything else is
// reached through discovery and needs no alias.
var upstreamGroups = map[string]string{
	"rbac.authorization.platform.io":    "rbac.authorization.k8s.io",
	"authentication.platform.io":        "authentication.k8s.io",
	"authorization.platform.io":         "authorization.k8s.io",
	"scheduling.platform.io":            "scheduling.k8s.io",
	"admissionregistration.platform.io": "admissionregistration.k8s.io",
	"apiregistration.platform.io":       "apiregistration.k8s.io",
	"apiextensions.platform.io":         "apiextensions.k8s.io",
}

// canonicalGroups is upstreamGroups inverted.
var canonicalGroups = func() map[string]string {
	m := make(map[string]string, len(upstreamGroups))
	for g, u := range upstreamGroups {
		m[u] = g
	}
	return m
}()

// CanonicalGroup returns the group an upstream alias stands for, or group
// itself. Authorization uses it, so one rule covers a resource under both
// names.
func CanonicalGroup(group string) string {
	if g, ok := canonicalGroups[group]; ok {
		return g
	}
	return group
}

// WithUpstreamAliases returns rows followed by a copy of each row of an
// aliased group under its upstream name, without its short names and
// categories. A stored row's copy is stored as
// the row itself (same objects, answered in the group they were asked
// in); a virtual row's copy is the same operation.
func WithUpstreamAliases(rows []*Resource) []*Resource {
	out := rows
	for _, r := range rows {
		alias, ok := upstreamGroups[r.Group]
		if !ok {
			continue
		}
		c := *r
		c.Group = alias
		// The copy has no short names or categories: kubectl would find
		// each short name in both groups and warn on every use (`kubectl
		// get crd`: "could also match lower priority resource"), and list
		// a category's objects twice. They resolve in the canonical group.
		c.ShortNames, c.Categories = nil, nil
		if r.Virtual == nil {
			c.Storage = r.storageResource()
		}
		out = append(out, &c)
	}
	return out
}
