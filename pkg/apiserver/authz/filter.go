package authz

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"go.uber.org/zap"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/audit/auditctx"
	"platform.io/platform/pkg/apiserver/endpoints"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/component/authn"
)

// AttributesFor returns the attributes of r made by u. A group served
// under its upstream name too is authorized by its own name, so one rule
// covers both.
func AttributesFor(r *http.Request, u *authn.User) Attributes {
	info := endpoints.RequestInfoFor(r)
	if !info.IsResourceRequest {
		return Attributes{User: u, Verb: strings.ToLower(r.Method), Path: r.URL.Path}
	}
	a := Attributes{
		User: u, Verb: info.Verb, ResourceRequest: true,
		APIGroup: registry.CanonicalGroup(info.APIGroup), APIVersion: info.APIVersion,
		Resource: info.Resource, Subresource: info.Subresource,
		Namespace: info.Namespace, Name: info.Name,
	}
	// A namespace is in its own scope, as upstream's request info has it,
	// so a namespaced grant covers reading the namespace itself.
	if a.Resource == "namespaces" && a.Name != "" {
		a.Namespace = a.Name
	}
	return a
}

// The audit annotations of the authorization decision: "allow" or
// "forbid", and the authorizer's reason.
const (
	AnnotationDecision = "authorization.platform.io/decision"
	AnnotationReason   = "authorization.platform.io/reason"
)

// WithAuthorization lets a request reach h only when z allows it; the user
// comes from the request's context (anonymous when absent). A denial, or
// no opinion from every authorizer, is a 403 Status in upstream's words.
func WithAuthorization(lg *zap.Logger, h http.Handler, z Authorizer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok := authn.UserFrom(r.Context())
		if !ok {
			u = authn.AnonymousUser()
		}
		a := AttributesFor(r, u)
		d, reason, err := z.Authorize(r.Context(), a)
		// The decision goes into the request's audit event, as upstream's
		// authorization.k8s.io/decision and /reason.
		if d == Allow {
			auditctx.AddAnnotation(r.Context(), AnnotationDecision, "allow")
		} else {
			auditctx.AddAnnotation(r.Context(), AnnotationDecision, "forbid")
		}
		auditctx.AddAnnotation(r.Context(), AnnotationReason, reason)
		if d == Allow {
			h.ServeHTTP(w, r)
			return
		}
		if err != nil {
			lg.Info("authorization error", zap.String("user", u.Name), zap.String("verb", a.Verb), zap.Error(err))
		}
		endpoints.WriteError(w, r, Forbidden(a, reason))
	})
}

// Forbidden is the 403 for a request a denied, as upstream words it, e.g.
// `pods "web" is forbidden: User "alice" cannot get resource "pods" in API
// group "" in the namespace "default"`.
func Forbidden(a Attributes, reason string) *apierrors.StatusError {
	msg := ForbiddenMessage(a)
	if reason != "" {
		msg += ": " + reason
	}
	if !a.ResourceRequest {
		return apierrors.NewForbidden(meta.GroupResource{}, "", errors.New(msg))
	}
	return apierrors.NewForbidden(meta.GroupResource{Group: a.APIGroup, Resource: a.Resource}, a.Name, errors.New(msg))
}

// ForbiddenMessage says who cannot do what, without the reason.
func ForbiddenMessage(a Attributes) string {
	name := ""
	if a.User != nil {
		name = a.User.Name
	}
	if !a.ResourceRequest {
		return fmt.Sprintf("User %q cannot %s path %q", name, a.Verb, a.Path)
	}
	res := a.Resource
	if a.Subresource != "" {
		res += "/" + a.Subresource
	}
	if a.Namespace != "" {
		return fmt.Sprintf("User %q cannot %s resource %q in API group %q in the namespace %q", name, a.Verb, res, a.APIGroup, a.Namespace)
	}
	return fmt.Sprintf("User %q cannot %s resource %q in API group %q at the cluster scope", name, a.Verb, res, a.APIGroup)
}
