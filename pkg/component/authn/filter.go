package authn

import (
	"net/http"

	"go.uber.org/zap"

	"platform.io/platform/pkg/component/status"
)

// WithAuthentication authenticates every request before h sees it, putting
// the user in the request's context; a request whose credentials fail is
// answered 401 with a Status body.
func WithAuthentication(lg *zap.Logger, h http.Handler, a Authenticator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok, err := a.AuthenticateRequest(r)
		if err != nil || !ok {
			lg.Debug("unable to authenticate the request", zap.String("path", r.URL.Path), zap.Error(err))
			status.Unauthorized(w)
			return
		}
		h.ServeHTTP(w, r.WithContext(WithUser(r.Context(), u)))
	})
}
