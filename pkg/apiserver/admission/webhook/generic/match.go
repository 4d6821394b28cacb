package generic

import (
	"context"
	"fmt"

	arv1 "platform.io/client/api/admissionregistration/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/admission/webhook/rules"
	"platform.io/platform/pkg/apiserver/registry"
)

// Invocation is a webhook to call and the version it sees the request in:
// the request's own, or (matchPolicy Equivalent) another served version
// of the same resource that one of its rules names.
type Invocation struct {
	Hook *Hook
	// Resource, Subresource and Kind are what the webhook is told (the
	// request's "resource", "subResource" and "kind").
	Resource    meta.GroupVersionResource
	Subresource string
	Kind        meta.GroupVersionKind
	// ConvertTo is the row of the version the object is converted to, nil
	// when the webhook sees the request's own version.
	ConvertTo *registry.Resource
}

// Matcher decides which webhooks see a request.
type Matcher struct {
	// Namespaces gives namespaceSelector the labels of an object's namespace.
	Namespaces *registry.Store
	rows       map[meta.GroupVersionResource]*registry.Resource
	// byStorage lists the stored rows sharing one storage, in served order.
	byStorage map[string][]*registry.Resource
}

// NewMatcher returns a matcher over the served rows (for namespacing and
// matchPolicy Equivalent; without rows, Equivalent matches as Exact).
func NewMatcher(namespaces *registry.Store, rows []*registry.Resource) *Matcher {
	m := &Matcher{Namespaces: namespaces, rows: map[meta.GroupVersionResource]*registry.Resource{}, byStorage: map[string][]*registry.Resource{}}
	for _, r := range rows {
		m.rows[meta.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Name}] = r
		if r.Virtual == nil {
			sp := registry.StoragePrefix("", r)
			m.byStorage[sp] = append(m.byStorage[sp], r)
		}
	}
	return m
}

// Match returns how h sees the request, or nil when it does not see it.
// Writes of webhook configurations are never sent to webhooks (as
// upstream), so a broken webhook cannot lock its own fix out.
func (m *Matcher) Match(ctx context.Context, h *Hook, a *admission.Attributes) (*Invocation, error) {
	if exempt(a) {
		return nil, nil
	}
	inv := m.matchRules(h, a)
	if inv == nil {
		return nil, nil
	}
	if h.SelectorErr != nil {
		return nil, fmt.Errorf("invalid selector: %w", h.SelectorErr)
	}
	ok, err := m.namespaceMatches(ctx, h, a)
	if err != nil || !ok {
		return nil, err
	}
	if !objectMatches(h.ObjectSelector, a) {
		return nil, nil
	}
	return inv, nil
}

func (m *Matcher) matchRules(h *Hook, a *admission.Attributes) *Invocation {
	row := m.rows[a.Resource]
	req := rules.Request{Operation: arv1.OperationType(a.Operation), Resource: a.Resource, Subresource: a.Subresource, Namespaced: m.namespaced(row, a)}
	if rules.MatchesAny(h.Rules, req) {
		return &Invocation{Hook: h, Resource: a.Resource, Subresource: a.Subresource, Kind: a.Kind}
	}
	if h.MatchPolicy != arv1.Equivalent || row == nil || row.Virtual != nil {
		return nil
	}
	for _, eq := range m.byStorage[registry.StoragePrefix("", row)] {
		if eq == row {
			continue
		}
		req.Resource = meta.GroupVersionResource{Group: eq.Group, Version: eq.Version, Resource: eq.Name}
		if !rules.MatchesAny(h.Rules, req) {
			continue
		}
		inv := &Invocation{Hook: h, Resource: req.Resource, Subresource: a.Subresource, Kind: a.Kind}
		// The object converts only when it is the resource's own kind
		// (not a subresource's such as autoscaling/v1 Scale).
		if a.Kind == row.GroupVersionKind() {
			inv.Kind, inv.ConvertTo = eq.GroupVersionKind(), eq
		}
		return inv
	}
	return nil
}

// namespaced reports whether the request's resource is namespaced: from
// its row, else from the request (a Namespace is cluster-scoped).
func (m *Matcher) namespaced(row *registry.Resource, a *admission.Attributes) bool {
	if row != nil {
		return row.Namespaced
	}
	return a.Namespace != ""
}

func isNamespace(a *admission.Attributes) bool {
	return a.Resource.Group == "" && a.Resource.Resource == "namespaces"
}

// namespaceMatches applies namespaceSelector: to the labels of the
// object's namespace, to a Namespace's own labels, and to nothing (always
// matching) for other cluster-scoped objects.
func (m *Matcher) namespaceMatches(ctx context.Context, h *Hook, a *admission.Attributes) (bool, error) {
	if h.NamespaceSelector.Empty() {
		return true, nil
	}
	if isNamespace(a) {
		return objectMatches(h.NamespaceSelector, a), nil
	}
	if a.Namespace == "" {
		return true, nil
	}
	if m.Namespaces == nil {
		return false, fmt.Errorf("no namespace store to read namespace %q", a.Namespace)
	}
	obj, err := m.Namespaces.GetShared(ctx, "", a.Namespace)
	if err != nil {
		return false, fmt.Errorf("read namespace %q: %w", a.Namespace, err)
	}
	ns, ok := obj.(*corev1.Namespace)
	if !ok {
		return false, fmt.Errorf("read namespace %q: unexpected %T", a.Namespace, obj)
	}
	return h.NamespaceSelector.Matches(labels.Set(ns.Labels)), nil
}

// objectMatches applies a selector to the labels of the object or of the
// old object: either matching is enough.
func objectMatches(sel labels.Selector, a *admission.Attributes) bool {
	if sel.Empty() {
		return true
	}
	for _, o := range []meta.Object{a.Object, a.OldObject} {
		if !isNil(o) && sel.Matches(labels.Set(o.GetObjectMeta().Labels)) {
			return true
		}
	}
	return false
}

func exempt(a *admission.Attributes) bool {
	if registry.CanonicalGroup(a.Resource.Group) != arv1.GroupName {
		return false
	}
	return a.Resource.Resource == "mutatingwebhookconfigurations" || a.Resource.Resource == "validatingwebhookconfigurations"
}
