package authz

import (
	"fmt"
	"net/http"
	"strings"

	"go.uber.org/zap"

	"platform.io/platform/pkg/component/authn"
	"platform.io/platform/pkg/component/status"
)

// WithAuthorization lets a request reach h only when a allows its user
// (from the context, anonymous when absent) the lowercased method on the
// path.
func WithAuthorization(lg *zap.Logger, h http.Handler, a Authorizer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok := authn.UserFrom(r.Context())
		if !ok {
			u = authn.AnonymousUser()
		}
		attrs := Attributes{User: u, Verb: strings.ToLower(r.Method), Path: r.URL.Path}
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
		msg := fmt.Sprintf("forbidden: User %q cannot %s path %q", u.Name, attrs.Verb, attrs.Path)
		if reason != "" {
			msg += ": " + reason
		}
		status.Forbidden(w, msg)
	})
}
