package metricsserver

import (
	"encoding/json"
	"net/http"
	"strings"

	"go.uber.org/zap"

	authzv1 "platform.io/client/api/authorization/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	metricsv1beta1 "platform.io/client/api/metrics/v1beta1"
	"platform.io/client/codec/protobuf"
	"platform.io/client/informer"
)

// Version is the one version served in each group.
const Version = "v1beta1"

// Groups are the groups served, the project's first: stock kubectl asks
// for the upstream one.
var Groups = []string{metricsv1beta1.GroupName, metricsv1beta1.UpstreamGroupName}

// API serves the resource metrics API from a Store, labelling each item
// with its node's or pod's labels from the listers.
type API struct {
	lg    *zap.Logger
	store *Store
	nodes informer.Lister[*corev1.Node]
	pods  informer.Lister[*corev1.Pod]
}

// NewAPI returns the API over store.
func NewAPI(lg *zap.Logger, store *Store, nodes informer.Lister[*corev1.Node], pods informer.Lister[*corev1.Pod]) *API {
	return &API{lg: lg, store: store, nodes: nodes, pods: pods}
}

// request is a parsed path of the API.
type request struct {
	// group is "" for /apis, else the group asked.
	group string
	// version is "" for /apis and /apis/<group>.
	version string
	// resource is "nodes" or "pods"; "" for discovery.
	resource  string
	namespace string
	name      string
	// watch is a watch=true request, which is refused.
	watch bool
}

// parse recognizes a path of the API; ok is false for any other.
func parse(r *http.Request) (request, bool) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/apis")
	if !ok {
		return request{}, false
	}
	rest = strings.TrimSuffix(rest, "/")
	if rest == "" {
		return request{}, true
	}
	parts := strings.Split(strings.TrimPrefix(rest, "/"), "/")
	q := request{group: parts[0], watch: r.URL.Query().Get("watch") == "true" || r.URL.Query().Get("watch") == "1"}
	if !served(q.group) || rest[0] != '/' {
		return request{}, false
	}
	if len(parts) == 1 {
		return q, true
	}
	if q.version = parts[1]; q.version != Version {
		return request{}, false
	}
	parts = parts[2:]
	if len(parts) >= 2 && parts[0] == "namespaces" {
		q.namespace, parts = parts[1], parts[2:]
		if len(parts) == 0 || parts[0] != "pods" {
			return request{}, false
		}
	}
	switch {
	case len(parts) == 0:
	case len(parts) <= 2 && (parts[0] == "nodes" || parts[0] == "pods"):
		q.resource = parts[0]
		if len(parts) == 2 {
			q.name = parts[1]
		}
		if q.resource == "nodes" && q.namespace != "" || q.name == "" && len(parts) == 2 {
			return request{}, false
		}
	default:
		return request{}, false
	}
	return q, true
}

func served(group string) bool {
	for _, g := range Groups {
		if g == group {
			return true
		}
	}
	return false
}

// verb is the request's API verb.
func (q request) verb() string {
	switch {
	case q.watch:
		return "watch"
	case q.name != "":
		return "get"
	}
	return "list"
}

// ResourceAttributes is the authz.ResourceResolver of the API: requests
// for nodes and pods are authorized as such (verbs get, list, watch);
// discovery is authorized by path.
func ResourceAttributes(r *http.Request) *authzv1.ResourceAttributes {
	q, ok := parse(r)
	if !ok || q.resource == "" {
		return nil
	}
	return &authzv1.ResourceAttributes{Namespace: q.namespace, Verb: q.verb(), Group: q.group, Version: q.version,
		Resource: q.resource, Name: q.name}
}

// ServeHTTP implements http.Handler.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q, ok := parse(r)
	if !ok {
		writeError(w, r, apierrors.New(http.StatusNotFound, meta.StatusReasonNotFound, "the server could not find the requested resource"))
		return
	}
	if r.Method != http.MethodGet || q.watch {
		writeError(w, r, apierrors.NewMethodNotSupported(meta.GroupResource{Group: q.group, Resource: q.resource}, q.verb()))
		return
	}
	switch {
	case q.group == "":
		a.groupList(w, r)
	case q.version == "":
		write(w, r, "v1", "APIGroup", group(q.group))
	case q.resource == "":
		a.resourceList(w, r, q)
	case q.resource == "nodes" && q.name != "":
		a.getNode(w, r, q)
	case q.resource == "nodes":
		a.listNodes(w, r, q)
	case q.name != "":
		a.getPod(w, r, q)
	default:
		a.listPods(w, r, q)
	}
}

func group(name string) *meta.APIGroup {
	gv := meta.GroupVersionForDiscovery{GroupVersion: name + "/" + Version, Version: Version}
	return &meta.APIGroup{TypeMeta: meta.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}, Name: name,
		Versions: []meta.GroupVersionForDiscovery{gv}, PreferredVersion: gv}
}

func (a *API) groupList(w http.ResponseWriter, r *http.Request) {
	l := &meta.APIGroupList{TypeMeta: meta.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}}
	for _, g := range Groups {
		gr := group(g)
		gr.TypeMeta = meta.TypeMeta{}
		l.Groups = append(l.Groups, *gr)
	}
	write(w, r, "v1", "APIGroupList", l)
}

func (a *API) resourceList(w http.ResponseWriter, r *http.Request, q request) {
	verbs := []string{"get", "list"}
	l := &meta.APIResourceList{
		TypeMeta:     meta.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"},
		GroupVersion: q.group + "/" + Version,
		APIResources: []meta.APIResource{
			{Name: "nodes", Kind: "NodeMetrics", Verbs: verbs},
			{Name: "pods", Kind: "PodMetrics", Namespaced: true, Verbs: verbs},
		},
	}
	write(w, r, "v1", "APIResourceList", l)
}

// writeError writes err's Status as JSON, which every client reads
// whatever it asked for.
func writeError(w http.ResponseWriter, _ *http.Request, err *apierrors.StatusError) {
	st := err.Status()
	data, _ := json.Marshal(st)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(int(st.Code))
	_, _ = w.Write(append(data, '\n'))
}

// write encodes obj in the format the request accepts: protobuf when it
// prefers it, else JSON; 406 when it accepts neither.
func write(w http.ResponseWriter, r *http.Request, apiVersion, kind string, obj protobuf.Message) {
	mediaType, ok := negotiate(r.Header.Get("Accept"))
	if !ok {
		writeError(w, r, apierrors.NewNotAcceptable("only application/json and "+protobuf.UpstreamMediaType+" are served"))
		return
	}
	var data []byte
	if mediaType == "application/json" {
		var err error
		if data, err = json.Marshal(obj); err != nil {
			writeError(w, r, apierrors.NewInternalError(err))
			return
		}
		data = append(data, '\n')
	} else {
		data = protobuf.Encode(apiVersion, kind, obj)
	}
	w.Header().Set("Content-Type", mediaType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(data)
}

// negotiate picks the media type of the first acceptable entry of accept.
// An entry asking for another form (as=Table) is skipped.
func negotiate(accept string) (string, bool) {
	if strings.TrimSpace(accept) == "" {
		return "application/json", true
	}
	for _, entry := range strings.Split(accept, ",") {
		typ, params, _ := strings.Cut(entry, ";")
		if strings.Contains(params, "as=") {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(typ)) {
		case protobuf.MediaType:
			return protobuf.MediaType, true
		case protobuf.UpstreamMediaType:
			return protobuf.UpstreamMediaType, true
		case "application/json", "application/*", "*/*":
			return "application/json", true
		}
	}
	return "", false
}
