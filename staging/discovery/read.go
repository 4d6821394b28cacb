package discovery

import (
	"context"
	"fmt"
	"strings"
	"sync"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"
)

// groupVersion is one group version to read, and whether it is its
// group's preferred one.
type groupVersion struct {
	gv        meta.GroupVersion
	preferred bool
}

// Read reads the server's discovery documents: /api and /apis, then every
// group version's resource list, all at once. A group version that fails
// is in the snapshot's Failed; one that answers 404 (it went away after
// /apis was read) is left out. It fails only when /api or /apis fails.
func Read(ctx context.Context, rc *rest.Client) (Snapshot, error) {
	gvs, err := groupVersions(ctx, rc)
	if err != nil {
		return Snapshot{}, err
	}
	lists := make([][]Resource, len(gvs))
	errs := make([]error, len(gvs))
	var wg sync.WaitGroup
	for i, g := range gvs {
		wg.Go(func() { lists[i], errs[i] = readGroupVersion(ctx, rc, g) })
	}
	wg.Wait()
	snap := Snapshot{Failed: map[meta.GroupVersion]error{}}
	for i, g := range gvs {
		switch {
		case apierrors.IsNotFound(errs[i]):
		case errs[i] != nil:
			snap.Failed[g.gv] = errs[i]
		default:
			snap.Resources = append(snap.Resources, lists[i]...)
		}
	}
	return snap, nil
}

// groupVersions lists the served group versions, the core group first.
func groupVersions(ctx context.Context, rc *rest.Client) ([]groupVersion, error) {
	var core meta.APIVersions
	if err := rc.Get().AbsPath("/api").Do(ctx).Into(&core); err != nil {
		return nil, fmt.Errorf("discovery: /api: %w", err)
	}
	var out []groupVersion
	for i, v := range core.Versions {
		out = append(out, groupVersion{gv: meta.GroupVersion{Version: v}, preferred: i == 0})
	}
	var groups meta.APIGroupList
	if err := rc.Get().AbsPath("/apis").Do(ctx).Into(&groups); err != nil {
		return nil, fmt.Errorf("discovery: /apis: %w", err)
	}
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			gv := meta.GroupVersion{Group: g.Name, Version: v.Version}
			out = append(out, groupVersion{gv: gv, preferred: v.GroupVersion == g.PreferredVersion.GroupVersion})
		}
	}
	return out, nil
}

// readGroupVersion reads one group version's resource list.
func readGroupVersion(ctx context.Context, rc *rest.Client, g groupVersion) ([]Resource, error) {
	path := "/apis/" + g.gv.String()
	if g.gv.Group == "" {
		path = "/api/" + g.gv.Version
	}
	var list meta.APIResourceList
	if err := rc.Get().AbsPath(path).Do(ctx).Into(&list); err != nil {
		return nil, fmt.Errorf("discovery: %s: %w", path, err)
	}
	return resources(g, list.APIResources), nil
}

// resources turns a resource list into Resources, each subresource
// ("pods/status") folded into its resource.
func resources(g groupVersion, list []meta.APIResource) []Resource {
	var out []Resource
	index := map[string]int{}
	for _, ar := range list {
		if _, _, sub := strings.Cut(ar.Name, "/"); sub {
			continue
		}
		index[ar.Name] = len(out)
		out = append(out, Resource{
			Resource: client.Resource{Group: g.gv.Group, Version: g.gv.Version, Name: ar.Name,
				Kind: ar.Kind, Namespaced: ar.Namespaced},
			Verbs: append([]string(nil), ar.Verbs...), Preferred: g.preferred,
		})
	}
	for _, ar := range list {
		parent, sub, ok := strings.Cut(ar.Name, "/")
		if i, found := index[parent]; ok && found {
			out[i].Subresources = append(out[i].Subresources, sub)
		}
	}
	return out
}
