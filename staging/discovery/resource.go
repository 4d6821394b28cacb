package discovery

import (
	"slices"

	"platform.io/client/api/meta"
	"platform.io/client/client"
)

// Verbs a discovered resource may support.
const (
	VerbGet              = "get"
	VerbList             = "list"
	VerbWatch            = "watch"
	VerbDelete           = "delete"
	VerbDeleteCollection = "deletecollection"
	VerbPatch            = "patch"
)

// Resource is one served resource of one group version, with what its
// discovery entry says: scope, kind, verbs, subresources.
type Resource struct {
	client.Resource
	// Verbs are the verbs the resource itself supports.
	Verbs []string
	// Preferred says the version is its group's preferred version.
	Preferred bool
}

// Supports reports whether the resource supports every one of verbs.
func (r Resource) Supports(verbs ...string) bool {
	for _, v := range verbs {
		if !slices.Contains(r.Verbs, v) {
			return false
		}
	}
	return true
}

// Snapshot is the result of one discovery.
type Snapshot struct {
	// Resources are the served resources, one per group version and
	// resource, in discovery order (the core group first, then /apis's
	// order, each group's versions in its order). Subresources are folded
	// into their resource's Subresources.
	Resources []Resource
	// Failed holds, per group version, why its document could not be
	// read; Resources keeps what it held when last read.
	Failed map[meta.GroupVersion]error
}

// Preferred returns one entry per group and resource: the one in the
// group's preferred version, or, for a resource the preferred version does
// not serve, the first version that does.
func (s Snapshot) Preferred() []Resource {
	var out []Resource
	seen := map[meta.GroupResource]int{}
	for _, r := range s.Resources {
		i, ok := seen[r.GroupResource()]
		switch {
		case !ok:
			seen[r.GroupResource()] = len(out)
			out = append(out, r)
		case r.Preferred && !out[i].Preferred:
			out[i] = r
		}
	}
	return out
}

// Supporting returns the entries of rs that support every one of verbs.
func Supporting(rs []Resource, verbs ...string) []Resource {
	var out []Resource
	for _, r := range rs {
		if r.Supports(verbs...) {
			out = append(out, r)
		}
	}
	return out
}

// FailedGroups returns the groups with a failed group version, sorted.
func (s Snapshot) FailedGroups() []string {
	var out []string
	for gv := range s.Failed {
		if !slices.Contains(out, gv.Group) {
			out = append(out, gv.Group)
		}
	}
	slices.Sort(out)
	return out
}
