package authn

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"go.uber.org/zap"

	apierrors "platform.io/client/api/errors"

	"platform.io/platform/pkg/apiserver/audit/auditctx"
	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/endpoints"
	"platform.io/platform/pkg/component/authn"
)

// Impersonation headers, as upstream.
const (
	ImpersonateUser        = "Impersonate-User"
	ImpersonateGroup       = "Impersonate-Group"
	ImpersonateUID         = "Impersonate-Uid"
	ImpersonateExtraPrefix = "Impersonate-Extra-"
)

// impersonationGroup is the API group of the uids and userextras
// resources impersonation is authorized on.
const impersonationGroup = "authentication.platform.io"

const serviceAccountPrefix = "system:serviceaccount:"

// WithImpersonation lets an authenticated user act as another when the
// request carries Impersonate-* headers: every requested name is
// authorized with the verb impersonate (a user on users, or on
// serviceaccounts in its namespace for a service account's name; each
// group on groups; the uid on uids; each extra value on userextras/<key>),
// and any refusal is a 403. The request then proceeds as the impersonated
// user, without the headers. Groups, uid or extras without a user are a
// 400.
func WithImpersonation(lg *zap.Logger, h http.Handler, z authz.Authorizer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := parseImpersonation(r.Header)
		if err != nil {
			endpoints.WriteError(w, r, apierrors.NewBadRequest(err.Error()))
			return
		}
		if req == nil {
			h.ServeHTTP(w, r)
			return
		}
		actor, ok := authn.UserFrom(r.Context())
		if !ok {
			actor = authn.AnonymousUser()
		}
		for _, a := range req.attributes(actor) {
			d, reason, err := z.Authorize(r.Context(), a)
			if d == authz.Allow {
				continue
			}
			lg.Debug("impersonation refused", zap.String("user", actor.Name), zap.String("resource", a.Resource),
				zap.String("name", a.Name), zap.String("reason", reason), zap.Error(err))
			endpoints.WriteError(w, r, authz.Forbidden(a, reason))
			return
		}
		for name := range r.Header {
			if strings.HasPrefix(strings.ToLower(name), "impersonate-") {
				r.Header.Del(name)
			}
		}
		u := req.user()
		auditctx.SetImpersonatedUser(r.Context(), u)
		h.ServeHTTP(w, r.WithContext(authn.WithUser(r.Context(), u)))
	})
}

// impersonation is what the headers ask for.
type impersonation struct {
	name   string
	groups []string
	uid    string
	extra  map[string][]string
}

// parseImpersonation reads the headers: nil when there are none.
func parseImpersonation(h http.Header) (*impersonation, error) {
	req := impersonation{name: h.Get(ImpersonateUser), groups: h.Values(ImpersonateGroup), uid: h.Get(ImpersonateUID)}
	p := ImpersonateExtraPrefix
	for name, values := range h {
		// Every request passes here: match the prefix without lowercasing
		// (and allocating) each header's name.
		if len(name) <= len(p) || !strings.EqualFold(name[:len(p)], p) {
			continue
		}
		key, err := url.PathUnescape(strings.ToLower(name[len(p):]))
		if err != nil {
			return nil, fmt.Errorf("impersonation extra key %q: %w", name, err)
		}
		if req.extra == nil {
			req.extra = map[string][]string{}
		}
		req.extra[key] = append(req.extra[key], values...)
	}
	if req.name == "" {
		if len(req.groups) > 0 || req.uid != "" || len(req.extra) > 0 {
			return nil, fmt.Errorf("requested impersonation of groups, uid or extra without impersonating a user")
		}
		return nil, nil
	}
	out := req
	return &out, nil
}

// attributes are the checks the actor must pass, as upstream makes them.
func (req *impersonation) attributes(actor *authn.User) []authz.Attributes {
	imp := func(group, resource, sub, ns, name string) authz.Attributes {
		return authz.Attributes{User: actor, Verb: "impersonate", ResourceRequest: true,
			APIGroup: group, Resource: resource, Subresource: sub, Namespace: ns, Name: name}
	}
	var as []authz.Attributes
	if ns, sa, ok := splitServiceAccount(req.name); ok {
		as = append(as, imp("", "serviceaccounts", "", ns, sa))
	} else {
		as = append(as, imp("", "users", "", "", req.name))
	}
	for _, g := range req.groups {
		as = append(as, imp("", "groups", "", "", g))
	}
	keys := make([]string, 0, len(req.extra))
	for k := range req.extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range req.extra[k] {
			as = append(as, imp(impersonationGroup, "userextras", k, "", v))
		}
	}
	if req.uid != "" {
		as = append(as, imp(impersonationGroup, "uids", "", "", req.uid))
	}
	return as
}

// user is the impersonated user: a service account without requested
// groups gets its own; everyone but system:anonymous is in
// system:authenticated, and system:anonymous in system:unauthenticated.
func (req *impersonation) user() *authn.User {
	u := &authn.User{Name: req.name, UID: req.uid, Groups: slices.Clone(req.groups), Extra: req.extra}
	if ns, _, ok := splitServiceAccount(req.name); ok && len(req.groups) == 0 {
		u.Groups = []string{"system:serviceaccounts", "system:serviceaccounts:" + ns}
	}
	all := authn.AllAuthenticated
	if u.Name == authn.Anonymous {
		all = authn.AllUnauthenticated
	}
	if !slices.Contains(u.Groups, all) {
		u.Groups = append(u.Groups, all)
	}
	return u
}

// splitServiceAccount splits system:serviceaccount:<ns>:<name>.
func splitServiceAccount(name string) (ns, sa string, ok bool) {
	rest, found := strings.CutPrefix(name, serviceAccountPrefix)
	if !found {
		return "", "", false
	}
	ns, sa, ok = strings.Cut(rest, ":")
	if !ok || ns == "" || sa == "" || strings.Contains(sa, ":") {
		return "", "", false
	}
	return ns, sa, true
}
