package endpoints

import (
	"net/http"
	"sort"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// discovery holds the discovery documents, built once at start.
type discovery struct {
	apiVersions *meta.APIVersions
	groupList   *meta.APIGroupList
	groups      map[string]*meta.APIGroup
	resources   map[meta.GroupVersion]*meta.APIResourceList
}

var mainVerbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}

func buildDiscovery(h *routes) *discovery {
	d := &discovery{
		apiVersions: &meta.APIVersions{TypeMeta: meta.TypeMeta{Kind: "APIVersions"}, ServerAddressByClientCIDRs: []meta.ServerAddressByClientCIDR{}},
		groupList:   &meta.APIGroupList{TypeMeta: meta.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}, Groups: []meta.APIGroup{}},
		groups:      map[string]*meta.APIGroup{},
		resources:   map[meta.GroupVersion]*meta.APIResourceList{},
	}
	d.apiVersions.Versions = h.groups[""]
	var names []string
	for g := range h.groups {
		if g != "" {
			names = append(names, g)
		}
	}
	sort.Strings(names)
	for _, g := range names {
		ag := meta.APIGroup{TypeMeta: meta.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}, Name: g}
		for _, v := range h.groups[g] {
			ag.Versions = append(ag.Versions, meta.GroupVersionForDiscovery{GroupVersion: g + "/" + v, Version: v})
		}
		ag.PreferredVersion = ag.Versions[0]
		d.groups[g] = &ag
		listed := ag
		listed.TypeMeta = meta.TypeMeta{}
		d.groupList.Groups = append(d.groupList.Groups, listed)
	}
	for gv := range h.stores {
		list := &meta.APIResourceList{TypeMeta: meta.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv.String()}
		for _, name := range h.resourceNames(gv) {
			list.APIResources = append(list.APIResources, apiResources(h.stores[gv][name].Resource)...)
		}
		d.resources[gv] = list
	}
	return d
}

// apiResources describes a resource and its subresources.
func apiResources(r *registry.Resource) []meta.APIResource {
	verbs := mainVerbs
	if r.Virtual != nil {
		verbs = []string{"create"}
	}
	main := meta.APIResource{
		Name: r.Name, SingularName: r.Singular, Namespaced: r.Namespaced, Kind: r.Kind,
		Verbs: verbs, ShortNames: r.ShortNames, Categories: r.Categories,
	}
	out := []meta.APIResource{main}
	if r.HasStatus {
		out = append(out, meta.APIResource{Name: r.Name + "/status", Namespaced: r.Namespaced, Kind: r.Kind, Verbs: []string{"get", "patch", "update"}})
	}
	if r.Scale != nil {
		out = append(out, meta.APIResource{Name: r.Name + "/scale", Namespaced: r.Namespaced, Group: "autoscaling", Version: "v1", Kind: "Scale", Verbs: []string{"get", "patch", "update"}})
	}
	if r.Finalize != nil {
		out = append(out, meta.APIResource{Name: r.Name + "/finalize", Namespaced: r.Namespaced, Kind: r.Kind, Verbs: []string{"update"}})
	}
	var actions []string
	for name := range r.Actions {
		actions = append(actions, name)
	}
	sort.Strings(actions)
	for _, name := range actions {
		sub := meta.APIResource{Name: r.Name + "/" + name, Namespaced: r.Namespaced, Verbs: []string{"create"}}
		gvk := r.ActionKind(name)
		sub.Kind = gvk.Kind
		if gvk.GroupVersion() != r.GroupVersion() {
			sub.Group, sub.Version = gvk.Group, gvk.Version
		}
		out = append(out, sub)
	}
	return out
}

func (d *discovery) serve(w http.ResponseWriter, r *http.Request, info *RequestInfo) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		WriteError(w, r, apierrors.New(http.StatusMethodNotAllowed, meta.StatusReasonMethodNotAllowed, "discovery documents are read-only"))
		return
	}
	var doc any
	switch {
	case info.APIPrefix == "api" && info.APIVersion == "":
		doc = d.apiVersions
	case info.APIPrefix == "apis" && info.APIGroup == "":
		doc = d.groupList
	case info.APIPrefix == "apis" && info.APIVersion == "":
		if g := d.groups[info.APIGroup]; g != nil {
			doc = g
		}
	default:
		if l := d.resources[meta.GroupVersion{Group: info.APIGroup, Version: info.APIVersion}]; l != nil {
			doc = l
		}
	}
	if doc == nil {
		WriteError(w, r, apierrors.New(http.StatusNotFound, meta.StatusReasonNotFound, "the server could not find the requested resource"))
		return
	}
	writeJSON(w, r, http.StatusOK, doc)
}

// ServesGroup reports whether the handler serves group (the core group is
// "").
func (h *Handler) ServesGroup(group string) bool {
	_, ok := h.routes.Load().groups[group]
	return ok
}

// GroupList returns a copy of the /apis document of the locally served
// groups, in their discovery order, for a handler that adds more groups.
func (h *Handler) GroupList() *meta.APIGroupList {
	l := *h.routes.Load().discovery.groupList
	l.Groups = append([]meta.APIGroup(nil), l.Groups...)
	return &l
}

// WriteDiscovery writes a discovery document (an APIGroupList, APIGroup or
// APIResourceList) as JSON, as the handler's own are written.
func WriteDiscovery(w http.ResponseWriter, r *http.Request, doc any) {
	writeJSON(w, r, http.StatusOK, doc)
}
