package authz

import (
	"fmt"
	"net/http"
	"strings"

	"go.uber.org/zap"

	authzv1 "platform.io/client/api/authorization/v1"

	"platform.io/platform/pkg/component/authn"
	"platform.io/platform/pkg/component/status"
)

// ResourceResolver returns the resource attributes of a request to an API
// resource the daemon serves (group, resource, namespace, name, verb), and
// nil for any other request, which is then authorized by its path.
type ResourceResolver func(r *http.Request) *authzv1.ResourceAttributes

// WithAuthorization lets a request reach h only when a allows its user
// (from the context, anonymous when absent) the lowercased method on the
// path.
func WithAuthorization(lg *zap.Logger, h http.Handler, a Authorizer) http.Handler {
	return WithResourceAuthorization(lg, h, a, nil)
}

// WithResourceAuthorization is WithAuthorization where the requests
// resolve recognizes are authorized as requests to API resources; resolve
// may be nil.
func WithResourceAuthorization(lg *zap.Logger, h http.Handler, a Authorizer, resolve ResourceResolver) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok := authn.UserFrom(r.Context())
		if !ok {
			u = authn.AnonymousUser()
		}
		attrs := Attributes{User: u, Verb: strings.ToLower(r.Method), Path: r.URL.Path}
		if resolve != nil {
			if ra := resolve(r); ra != nil {
				attrs.Resource, attrs.Verb = ra, ra.Verb
			}
		}
		d, reason, err := a.Authorize(r.Context(), attrs)
		if d == Allow {
			h.ServeHTTP(w, r)
			return
		}
		if err != nil {
			lg.Warn("authorization error", zap.String("user", u.Name), zap.String("path", attrs.Path), zap.Error(err))
			status.InternalError(w, err)
			return
		}
		lg.Debug("forbidden", zap.String("user", u.Name), zap.String("verb", attrs.Verb), zap.String("path", attrs.Path),
			zap.String("reason", reason))
		msg := forbiddenMessage(u.Name, attrs)
		if reason != "" {
			msg += ": " + reason
		}
		status.Forbidden(w, msg)
	})
}

// forbiddenMessage says who may not do what, in upstream's words.
func forbiddenMessage(user string, a Attributes) string {
	ra := a.Resource
	if ra == nil {
		return fmt.Sprintf("forbidden: User %q cannot %s path %q", user, a.Verb, a.Path)
	}
	msg := fmt.Sprintf("%s.%s", ra.Resource, ra.Group)
	if ra.Name != "" {
		msg += fmt.Sprintf(" %q", ra.Name)
	}
	msg += fmt.Sprintf(" is forbidden: User %q cannot %s resource %q in API group %q", user, a.Verb, ra.Resource, ra.Group)
	if ra.Namespace != "" {
		return msg + fmt.Sprintf(" in the namespace %q", ra.Namespace)
	}
	return msg + " at the cluster scope"
}
