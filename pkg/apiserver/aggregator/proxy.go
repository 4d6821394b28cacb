package aggregator

import (
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"

	"go.uber.org/zap"

	apiregv1 "platform.io/client/api/apiregistration/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/endpoints"
	"platform.io/platform/pkg/component/authn"
)

// Handler serves the aggregated paths and passes every other request to
// next, the server's own handler: /apis (merged), /apis/<group> of a
// delegated group, and everything under /apis/<group>/<version> of a
// delegated group version (proxied). It must run behind the
// authentication and authorization filters: the proxied request carries
// the user they established.
func (a *Aggregator) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		if parts[0] != "apis" {
			next.ServeHTTP(w, r)
			return
		}
		if len(parts) == 1 {
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				endpoints.WriteDiscovery(w, r, a.groupList())
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		group := parts[1]
		if group == "" || a.cfg.Local.ServesGroup(group) {
			next.ServeHTTP(w, r)
			return
		}
		if len(parts) == 2 {
			if g := a.group(group); g != nil && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
				endpoints.WriteDiscovery(w, r, g)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		b := a.lookup(group, parts[2])
		if b == nil || b.svc.Spec.Service == nil {
			next.ServeHTTP(w, r)
			return
		}
		a.proxy(w, r, b)
	})
}

// proxy forwards r to b's server, or answers 503 while b is not
// Available or its server cannot be reached.
func (a *Aggregator) proxy(w http.ResponseWriter, r *http.Request, b *backend) {
	if !b.svc.IsAvailable() {
		endpoints.WriteError(w, r, unavailable("the server is currently unable to handle the request"))
		return
	}
	u, ok := authn.UserFrom(r.Context())
	if !ok {
		endpoints.WriteError(w, r, apierrors.NewInternalError(fmt.Errorf("no user found for request")))
		return
	}
	ref := b.svc.Spec.Service
	addr, err := a.resolver.Resolve(r.Context(), ref.Namespace, ref.Name, port(ref))
	if err != nil {
		endpoints.WriteError(w, r, unavailable(fmt.Sprintf("service unavailable: %v", err)))
		return
	}
	target := &url.URL{Scheme: "https", Host: addr}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			a.setUser(pr.Out.Header, u)
		},
		Transport: b.transport,
		// Watches and other streams reach the client as they come.
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			a.lg.Info("aggregated server unreachable", zap.String("apiService", b.svc.Name), zap.String("address", addr), zap.Error(err))
			endpoints.WriteError(w, r, unavailable(fmt.Sprintf("error trying to reach service: %v", err)))
		},
	}
	rp.ServeHTTP(w, r)
}

// setUser replaces the credentials and identity headers of the client's
// request with the user the server authenticated, in the headers the
// aggregated server trusts from the front proxy.
func (a *Aggregator) setUser(h http.Header, u *authn.User) {
	hd := a.cfg.Headers
	h.Del("Authorization")
	for name := range h {
		lower := strings.ToLower(name)
		if strings.HasPrefix(lower, "impersonate-") || strings.HasPrefix(lower, strings.ToLower(hd.ExtraPrefix)) ||
			strings.HasPrefix(lower, strings.ToLower(DefaultHeaders.ExtraPrefix)) {
			delete(h, name)
		}
	}
	for _, name := range []string{hd.User, hd.Group, DefaultHeaders.User, DefaultHeaders.Group} {
		h.Del(name)
	}
	h.Set(hd.User, u.Name)
	for _, g := range u.Groups {
		h.Add(hd.Group, g)
	}
	for k, vs := range u.Extra {
		name := hd.ExtraPrefix + url.PathEscape(k)
		for _, v := range vs {
			h.Add(name, v)
		}
	}
}

func port(ref *apiregv1.ServiceReference) int32 {
	if ref.Port != nil {
		return *ref.Port
	}
	return apiregv1.DefaultPort
}

func unavailable(msg string) error {
	return apierrors.New(http.StatusServiceUnavailable, meta.StatusReasonServiceUnavailable, msg)
}
