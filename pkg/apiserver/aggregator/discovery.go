package aggregator

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	apiregv1 "platform.io/client/api/apiregistration/v1"
	"platform.io/client/api/meta"
)

// groupList is /apis: the server's own groups in their order, then the
// delegated groups in upstream's order (see sortGroups). A delegated group
// is listed whether or not it is Available, as upstream does: a client
// learns of a group that is down from its version's 503.
func (a *Aggregator) groupList() *meta.APIGroupList {
	l := a.cfg.Local.GroupList()
	for _, versions := range sortGroups(a.remote()) {
		g := apiGroup(versions)
		g.TypeMeta = meta.TypeMeta{}
		l.Groups = append(l.Groups, *g)
	}
	return l
}

// group is /apis/<group> of a delegated group, nil when no APIService
// delegates it.
func (a *Aggregator) group(name string) *meta.APIGroup {
	for _, versions := range sortGroups(a.remote()) {
		if versions[0].Spec.Group == name {
			return apiGroup(versions)
		}
	}
	return nil
}

// remote returns the APIServices that delegate a group the server does not
// serve itself.
func (a *Aggregator) remote() []*apiregv1.APIService {
	var out []*apiregv1.APIService
	for _, s := range a.snapshot() {
		if s.Spec.Service != nil && s.Spec.Group != "" && !a.cfg.Local.ServesGroup(s.Spec.Group) {
			out = append(out, s)
		}
	}
	return out
}

// apiGroup describes a group by its APIServices, sorted: the first is the
// preferred version.
func apiGroup(versions []*apiregv1.APIService) *meta.APIGroup {
	g := &meta.APIGroup{TypeMeta: meta.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}, Name: versions[0].Spec.Group}
	for _, s := range versions {
		g.Versions = append(g.Versions, meta.GroupVersionForDiscovery{GroupVersion: s.Spec.Group + "/" + s.Spec.Version, Version: s.Spec.Version})
	}
	g.PreferredVersion = g.Versions[0]
	return g
}

// sortGroups groups APIServices by group, in upstream's order: groups by
// the highest groupPriorityMinimum of their versions, highest first, then
// by name; the versions of a group by versionPriority, highest first,
// then by version (CompareVersions).
func sortGroups(services []*apiregv1.APIService) [][]*apiregv1.APIService {
	byGroup := map[string][]*apiregv1.APIService{}
	for _, s := range services {
		byGroup[s.Spec.Group] = append(byGroup[s.Spec.Group], s)
	}
	out := make([][]*apiregv1.APIService, 0, len(byGroup))
	for _, versions := range byGroup {
		slices.SortFunc(versions, func(x, y *apiregv1.APIService) int {
			if c := cmp.Compare(y.Spec.VersionPriority, x.Spec.VersionPriority); c != 0 {
				return c
			}
			return -CompareVersions(x.Spec.Version, y.Spec.Version)
		})
		out = append(out, versions)
	}
	priority := func(versions []*apiregv1.APIService) int32 {
		var p int32
		for _, s := range versions {
			p = max(p, s.Spec.GroupPriorityMinimum)
		}
		return p
	}
	slices.SortFunc(out, func(x, y []*apiregv1.APIService) int {
		if c := cmp.Compare(priority(y), priority(x)); c != 0 {
			return c
		}
		return strings.Compare(x[0].Spec.Group, y[0].Spec.Group)
	})
	return out
}

// CompareVersions orders API version names the platform's way: general
// availability above beta above alpha (v2 > v1 > v1beta2 > v1beta1 >
// v1alpha1), and any name not of that form below them all, in reverse
// alphabetical order. It returns 1 when x ranks higher, -1 when y does.
func CompareVersions(x, y string) int {
	xk, yk := versionKey(x), versionKey(y)
	if !xk.ok || !yk.ok {
		switch {
		case xk.ok:
			return 1
		case yk.ok:
			return -1
		}
		return strings.Compare(y, x)
	}
	if c := cmp.Compare(xk.level, yk.level); c != 0 {
		return c
	}
	if c := cmp.Compare(xk.major, yk.major); c != 0 {
		return c
	}
	return cmp.Compare(xk.minor, yk.minor)
}

// version is a parsed version name: v<major>[(alpha|beta)<minor>].
type version struct {
	ok           bool
	level        int // 0 alpha, 1 beta, 2 GA
	major, minor int
}

func versionKey(v string) version {
	rest, ok := strings.CutPrefix(v, "v")
	if !ok {
		return version{}
	}
	digits := func(s string) (int, string) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || s[0] == '0' {
			return -1, s
		}
		n, _ := strconv.Atoi(s[:i])
		return n, s[i:]
	}
	major, rest := digits(rest)
	if major < 0 {
		return version{}
	}
	if rest == "" {
		return version{ok: true, level: 2, major: major}
	}
	level := -1
	for l, word := range []string{"alpha", "beta"} {
		if tail, ok := strings.CutPrefix(rest, word); ok {
			level, rest = l, tail
		}
	}
	if level < 0 {
		return version{}
	}
	minor, rest := digits(rest)
	if minor < 0 || rest != "" {
		return version{}
	}
	return version{ok: true, level: level, major: major, minor: minor}
}
