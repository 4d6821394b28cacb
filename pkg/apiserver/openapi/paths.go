package openapi

import (
	"sort"
	"strings"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// Media types of request and response bodies.
const (
	mimeJSON           = "application/json"
	mimeJSONStream     = "application/json;stream=watch"
	mimeAny            = "*/*"
	mimeJSONPatch      = "application/json-patch+json"
	mimeMergePatch     = "application/merge-patch+json"
	mimeStrategicMerge = "application/strategic-merge-patch+json"
	mimeApplyPatch     = "application/apply-patch+yaml"
)

var patchTypes = []string{mimeJSONPatch, mimeMergePatch, mimeStrategicMerge}

// customPatchTypes are the patches custom resources take: no strategic
// merge patch, which needs a Go type. kubectl's client-side apply reads
// this list to choose between a strategic and a JSON merge patch.
var customPatchTypes = []string{mimeJSONPatch, mimeMergePatch, mimeApplyPatch}

// pathItem is the operations served at one URL path.
type pathItem struct {
	Params []param
	Ops    map[string]*operation // by lower-case HTTP method
}

// operation is one HTTP method at one path.
type operation struct {
	ID          string
	Description string
	Action      string // x-kubernetes-action
	Tag         string
	GVK         *meta.GroupVersionKind
	Params      []param
	// Body names the definition of the request body, if any; Consumes its
	// media types.
	Body         string
	BodyRequired bool
	Consumes     []string
	Produces     []string
	Responses    []response
}

type response struct {
	Code        int
	Description string
	Def         string // definition of the body, or ""
}

func ok(def string) response       { return response{200, "OK", def} }
func created(def string) response  { return response{201, "Created", def} }
func accepted(def string) response { return response{202, "Accepted", def} }

var unauthorized = response{401, "Unauthorized", ""}

// refs calls fn with the definitions the operation names.
func (o *operation) refs(fn func(string)) {
	if o.Body != "" {
		fn(o.Body)
	}
	for _, r := range o.Responses {
		if r.Def != "" {
			fn(r.Def)
		}
	}
}

// resourcePaths are the paths of one registry row.
type resourcePaths struct {
	r       *registry.Resource
	gv      meta.GroupVersion
	kind    string // definition of the served kind
	list    string // definition of its list
	scale   string // definition of autoscaling/v1 Scale
	actions map[string]string
	out     map[string]*pathItem
}

func (p *resourcePaths) add(path string, params []param, method string, op *operation) {
	item := p.out[path]
	if item == nil {
		item = &pathItem{Params: params, Ops: map[string]*operation{}}
		p.out[path] = item
	}
	op.Tag = tag(p.gv)
	if op.Produces == nil {
		op.Produces = []string{mimeJSON}
	}
	item.Ops[method] = op
}

func (p *resourcePaths) gvk(kind string) *meta.GroupVersionKind {
	return &meta.GroupVersionKind{Group: p.gv.Group, Version: p.gv.Version, Kind: kind}
}

func actionGVK(r *registry.Resource, name string) *meta.GroupVersionKind {
	gvk := r.ActionKind(name)
	return &gvk
}

// build adds the collection, item, status, scale and action paths.
func (p *resourcePaths) build() {
	r := p.r
	base := "/" + gvPath(p.gv)
	scope := ""
	collParams := []param{paramPretty}
	if r.Namespaced {
		base += "/namespaces/{namespace}"
		scope = "Namespaced"
		collParams = []param{paramNamespace, paramPretty}
	}
	coll := base + "/" + r.Name
	item := coll + "/{name}"
	itemParams := append([]param{pathParam("name", "The name of the "+r.Kind+".")}, collParams...)
	if r.Virtual != nil {
		// An operation, not stored objects: POST to the collection only.
		p.add(coll, collParams, "post", &operation{
			ID: "create" + opPrefix(p.gv) + scope + r.Kind, Description: "create a " + r.Kind,
			Action: "post", GVK: p.gvk(r.Kind), Params: writeParams,
			Body: p.kind, BodyRequired: true, Consumes: []string{mimeAny},
			Responses: []response{ok(p.kind), created(p.kind), accepted(p.kind), unauthorized},
		})
		return
	}
	p.collection(coll, collParams, scope)
	p.item(item, itemParams, scope, "", p.kind, p.gvk(r.Kind))
	if r.Namespaced {
		p.add("/"+gvPath(p.gv)+"/"+r.Name, []param{paramPretty}, "get", &operation{
			ID:          "list" + opPrefix(p.gv) + r.Kind + "ForAllNamespaces",
			Description: "list or watch objects of kind " + r.Kind + " in every namespace",
			Action:      "list", GVK: p.gvk(r.Kind), Params: listParams,
			Produces:  []string{mimeJSON, mimeJSONStream},
			Responses: []response{ok(p.list), unauthorized},
		})
	}
	if r.HasStatus {
		p.item(item+"/status", itemParams, scope, "Status", p.kind, p.gvk(r.Kind))
	}
	if r.Scale != nil {
		scaleGVK := &meta.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}
		p.item(item+"/scale", itemParams, scope, "Scale", p.scale, scaleGVK)
	}
	for _, name := range sortedKeys(p.actions) {
		kind := actionKind(name)
		p.add(item+"/"+name, itemParams, "post", &operation{
			ID:          "create" + opPrefix(p.gv) + scope + r.Kind + kind,
			Description: "create " + name + " of a " + r.Kind,
			Action:      "post", GVK: actionGVK(r, name), Params: writeParams,
			Body: p.actions[name], BodyRequired: true, Consumes: []string{mimeAny},
			Responses: []response{ok(p.actions[name]), created(p.actions[name]), accepted(p.actions[name]), unauthorized},
		})
	}
}

// collection adds list, create and deletecollection.
func (p *resourcePaths) collection(path string, params []param, scope string) {
	r, id := p.r, opPrefix(p.gv)+scope+p.r.Kind
	status := metaDef("Status")
	p.add(path, params, "get", &operation{
		ID: "list" + id, Description: "list or watch objects of kind " + r.Kind,
		Action: "list", GVK: p.gvk(r.Kind), Params: listParams,
		Produces:  []string{mimeJSON, mimeJSONStream},
		Responses: []response{ok(p.list), unauthorized},
	})
	p.add(path, params, "post", &operation{
		ID: "create" + id, Description: "create a " + r.Kind,
		Action: "post", GVK: p.gvk(r.Kind), Params: writeParams,
		Body: p.kind, BodyRequired: true, Consumes: []string{mimeAny},
		Responses: []response{ok(p.kind), created(p.kind), accepted(p.kind), unauthorized},
	})
	p.add(path, params, "delete", &operation{
		ID: "delete" + opPrefix(p.gv) + "Collection" + scope + r.Kind, Description: "delete a collection of " + r.Kind,
		Action: "deletecollection", GVK: p.gvk(r.Kind), Params: concat(listParams, deleteParams),
		Body: metaDef("DeleteOptions"), Consumes: []string{mimeAny},
		Responses: []response{ok(status), unauthorized},
	})
}

// item adds read, replace and patch of an object or of one of its
// subresources (sub is "", "Status" or "Scale"), and delete of the object.
func (p *resourcePaths) item(path string, params []param, scope, sub, def string, gvk *meta.GroupVersionKind) {
	r, id := p.r, opPrefix(p.gv)+scope+p.r.Kind+sub
	what := "the specified " + r.Kind
	if sub != "" {
		what = strings.ToLower(sub) + " of " + what
	}
	p.add(path, params, "get", &operation{
		ID: "read" + id, Description: "read " + what, Action: "get", GVK: gvk,
		Responses: []response{ok(def), unauthorized},
	})
	p.add(path, params, "put", &operation{
		ID: "replace" + id, Description: "replace " + what, Action: "put", GVK: gvk, Params: writeParams,
		Body: def, BodyRequired: true, Consumes: []string{mimeAny},
		Responses: []response{ok(def), created(def), unauthorized},
	})
	p.add(path, params, "patch", &operation{
		ID: "patch" + id, Description: "partially update " + what, Action: "patch", GVK: gvk, Params: writeParams,
		Body: metaDef("Patch"), BodyRequired: true, Consumes: p.patchTypes(),
		Responses: []response{ok(def), created(def), unauthorized},
	})
	if sub == "" {
		status := metaDef("Status")
		p.add(path, params, "delete", &operation{
			ID: "delete" + id, Description: "delete a " + r.Kind, Action: "delete", GVK: gvk,
			Params: deleteParams, Body: metaDef("DeleteOptions"), Consumes: []string{mimeAny},
			Responses: []response{ok(status), accepted(status), unauthorized},
		})
	}
}

func (p *resourcePaths) patchTypes() []string {
	if p.r.Custom {
		return customPatchTypes
	}
	return patchTypes
}

// discoveryPath adds the group version's resource list.
func discoveryPath(gv meta.GroupVersion, out map[string]*pathItem) {
	out["/"+gvPath(gv)+"/"] = &pathItem{Ops: map[string]*operation{"get": {
		ID: "get" + opPrefix(gv) + "APIResources", Description: "get the resources of " + gvPath(gv),
		Tag: tag(gv), Produces: []string{mimeJSON},
		Responses: []response{ok(metaDef("APIResourceList")), unauthorized},
	}}}
}

// actionKind names the body kind of an action subresource ("binding" is "Binding").
func actionKind(name string) string { return camel(name) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
