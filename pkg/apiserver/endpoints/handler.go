package endpoints

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/fieldmanager"
	"platform.io/platform/pkg/apiserver/registry"
)

// Config tunes the handler.
type Config struct {
	// MinRequestTimeout is the least a watch without timeoutSeconds lasts;
	// each lasts a random time up to twice as long, spreading reconnects.
	MinRequestTimeout time.Duration
	// Features that can be switched off (the feature gates).
	Features Features
}

// Features are the switchable behaviours of the handler.
type Features struct {
	// DryRun accepts dryRun=All; off, such requests are rejected.
	DryRun bool
	// ListChunking honours limit and continue; off, lists return everything.
	ListChunking bool
	// RemainingItemCount reports metadata.remainingItemCount on chunks.
	RemainingItemCount bool
}

// Handler serves every registered resource and the discovery documents.
// Resources come and go at run time (Set); each request is served from the
// table current when it started.
type Handler struct {
	lg  *zap.Logger
	cfg Config
	// mu serializes Set; sets are the registered store sets, built-ins first.
	mu     sync.Mutex
	sets   []storeSet
	routes atomic.Pointer[routes]
}

// NewHandler serves stores, the built-in resources. The first store
// registered for a group decides its preferred version.
func NewHandler(lg *zap.Logger, cfg Config, stores []*registry.Store) *Handler {
	if cfg.MinRequestTimeout <= 0 {
		cfg.MinRequestTimeout = 30 * time.Minute
	}
	h := &Handler{lg: lg, cfg: cfg}
	if err := h.Set("", stores); err != nil {
		panic(err.Error())
	}
	return h
}

// ServeHTTP routes a request under /api or /apis.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			h.lg.Error("handler panic", zap.Any("panic", p), zap.String("path", r.URL.Path), zap.Stack("stack"))
			WriteError(w, r, apierrors.NewInternalError(fmt.Errorf("the server failed to handle the request")))
		}
	}()
	info := RequestInfoFor(r)
	rt := h.routes.Load()
	if !info.IsResourceRequest {
		rt.discovery.serve(w, r, info)
		return
	}
	gv := meta.GroupVersion{Group: info.APIGroup, Version: info.APIVersion}
	s := rt.stores[gv][info.Resource]
	if s == nil {
		WriteError(w, r, apierrors.New(http.StatusNotFound, meta.StatusReasonNotFound, "the server could not find the requested resource"))
		return
	}
	if info.Resource == "namespaces" && info.Subresource == "" && len(info.Parts) > 3 {
		WriteError(w, r, apierrors.New(http.StatusNotFound, meta.StatusReasonNotFound, "the server could not find the requested resource"))
		return
	}
	if len(info.Parts) > 3 || (s.Resource.Namespaced && info.Namespace == "" && info.Name != "") {
		WriteError(w, r, apierrors.New(http.StatusNotFound, meta.StatusReasonNotFound, "the server could not find the requested resource"))
		return
	}
	out, err := negotiate(r, tablesAllowed(info), !s.Resource.Custom)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	if !h.cfg.Features.DryRun && r.URL.Query().Get("dryRun") != "" {
		WriteError(w, r, apierrors.NewBadRequest("dry-run requests are disabled: the DryRun feature gate is off"))
		return
	}
	fenced, err := h.fenceWrite(rt, r, info)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	r = fenced
	req := &request{w: w, r: r, info: info, store: s, lg: h.lg, out: out, minRequestTimeout: h.cfg.MinRequestTimeout, features: h.cfg.Features}
	// Warnings from the store, its strategies and admission become
	// Warning headers of the response.
	ctx := registry.WithWarnings(r.Context(), func(msg string) { addWarning(w.Header(), msg) })
	if s.Resource.Warning != "" {
		addWarning(w.Header(), s.Resource.Warning)
	}
	ctx = fieldmanager.WithManager(ctx, fieldmanager.ManagerFor(r.URL.Query().Get("fieldManager"), r.UserAgent()))
	req.r = r.WithContext(ctx)
	if s.Resource.Virtual != nil {
		req.serveVirtual()
		return
	}
	if info.Subresource != "" {
		req.serveSubresource()
		return
	}
	req.serveMain()
}

// request carries one resource request through its handler.
type request struct {
	w     http.ResponseWriter
	r     *http.Request
	info  *RequestInfo
	store *registry.Store
	lg    *zap.Logger
	// out is the negotiated response format.
	out               negotiated
	minRequestTimeout time.Duration
	features          Features
	// tableHeadersSent is set once a watch answered with Tables has sent
	// the column definitions.
	tableHeadersSent bool
}

func (q *request) serveMain() {
	switch q.info.Verb {
	case "get":
		q.get()
	case "list":
		q.list()
	case "create":
		if q.info.Name != "" {
			q.methodNotAllowed("POST on a named object")
			return
		}
		q.create()
	case "update", "patch":
		if q.info.Name == "" {
			q.methodNotAllowed(q.r.Method + " on a collection")
			return
		}
		if q.info.Verb == "update" {
			q.update(registry.Main)
			return
		}
		q.patch(registry.Main)
	case "delete":
		q.delete()
	case "deletecollection":
		q.deleteCollection()
	case "watch":
		q.watch()
	default:
		q.methodNotAllowed(q.r.Method)
	}
}

// serveVirtual serves a resource that is an operation: only a POST to its
// collection, answered 201 with the object and its computed status.
func (q *request) serveVirtual() {
	if q.info.Verb != "create" || q.info.Name != "" {
		q.methodNotAllowed(q.r.Method + " " + q.r.URL.Path)
		return
	}
	q.create()
}

func (q *request) methodNotAllowed(what string) {
	q.fail(apierrors.NewMethodNotSupported(q.store.Resource.GroupResource(), what))
}
