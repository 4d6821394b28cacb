package endpoints

import (
	"fmt"
	"sort"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// routes is one immutable generation of what the handler serves: the
// stores by group version and resource, the groups with their versions
// (preferred first), and the discovery documents built from them. The
// handler swaps the whole table when a set of stores is added or removed,
// so a request sees one consistent generation.
type routes struct {
	stores    map[meta.GroupVersion]map[string]*registry.Store
	groups    map[string][]string
	discovery *discovery
	// leases checks the leader locks writes name; nil when not served.
	leases *registry.Store
}

// storeSet is the stores one owner registered: the built-ins (owner "")
// or one custom resource definition.
type storeSet struct {
	owner  string
	stores []*registry.Store
}

// buildRoutes makes the table of sets, in order: the first store
// registered for a group decides its preferred version. A resource
// registered twice in one group version is an error.
func buildRoutes(sets []storeSet) (*routes, error) {
	rt := &routes{stores: map[meta.GroupVersion]map[string]*registry.Store{}, groups: map[string][]string{}}
	owners := map[meta.GroupVersionResource]string{}
	for _, set := range sets {
		for _, s := range set.stores {
			gv := s.Resource.GroupVersion()
			if rt.stores[gv] == nil {
				rt.stores[gv] = map[string]*registry.Store{}
				rt.groups[gv.Group] = append(rt.groups[gv.Group], gv.Version)
			}
			gvr := meta.GroupVersionResource{Group: gv.Group, Version: gv.Version, Resource: s.Resource.Name}
			if prev, dup := owners[gvr]; dup {
				return nil, fmt.Errorf("endpoints: resource %s registered twice in %s (by %q and %q)", s.Resource.Name, gv, prev, set.owner)
			}
			owners[gvr] = set.owner
			rt.stores[gv][s.Resource.Name] = s
		}
	}
	rt.discovery = buildDiscovery(rt)
	rt.leases = leaseStore(rt.stores)
	return rt, nil
}

// resourceNames lists the registered resources of gv, sorted.
func (rt *routes) resourceNames(gv meta.GroupVersion) []string {
	var names []string
	for n := range rt.stores[gv] {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Set replaces the stores registered by owner with stores (none removes
// them) and serves the new table to the requests that start from then on.
// The built-in stores given to NewHandler are owner "". It fails, and
// changes nothing, when a resource would be registered twice.
func (h *Handler) Set(owner string, stores []*registry.Store) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var sets []storeSet
	found := false
	for _, set := range h.sets {
		if set.owner == owner {
			found = true
			if len(stores) == 0 {
				continue
			}
			set.stores = stores
		}
		sets = append(sets, set)
	}
	if !found && len(stores) > 0 {
		sets = append(sets, storeSet{owner: owner, stores: stores})
	}
	rt, err := buildRoutes(sets)
	if err != nil {
		return err
	}
	h.sets = sets
	h.routes.Store(rt)
	return nil
}
