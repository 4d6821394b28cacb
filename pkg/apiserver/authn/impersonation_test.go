package authn

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

func TestImpersonation(t *testing.T) {
	// The authorizer lets the actor impersonate what allowed lists, as
	// "resource/name" or "resource/sub/name" (ns/ for service accounts).
	authorizer := func(allowed ...string) (authz.Authorizer, *[]authz.Attributes) {
		var asked []authz.Attributes
		return authz.Func(func(_ context.Context, a authz.Attributes) (authz.Decision, string, error) {
			asked = append(asked, a)
			key := a.Resource + "/" + a.Name
			if a.Subresource != "" {
				key = a.Resource + "/" + a.Subresource + "/" + a.Name
			}
			if a.Namespace != "" {
				key = a.Namespace + "/" + key
			}
			if a.Verb == "impersonate" && a.User.Name == "alice" && slices.Contains(allowed, key) {
				return authz.Allow, "", nil
			}
			return authz.NoOpinion, "", nil
		}), &asked
	}
	alice := &authn.User{Name: "alice", Groups: []string{"admins", authn.AllAuthenticated}}
	at := func(group, resource, sub, ns, name string) authz.Attributes {
		return authz.Attributes{User: alice, Verb: "impersonate", ResourceRequest: true, APIGroup: group,
			Resource: resource, Subresource: sub, Namespace: ns, Name: name}
	}
	tests := []struct {
		name      string
		headers   http.Header
		allowed   []string
		wantCode  int
		wantUser  *authn.User
		wantAsked []authz.Attributes
		wantMsg   string
	}{
		{name: "no headers", headers: http.Header{}, wantCode: 200, wantUser: alice},
		{name: "user allowed", headers: http.Header{"Impersonate-User": {"bob"}}, allowed: []string{"users/bob"},
			wantCode: 200, wantUser: &authn.User{Name: "bob", Groups: []string{authn.AllAuthenticated}},
			wantAsked: []authz.Attributes{at("", "users", "", "", "bob")}},
		{name: "user forbidden", headers: http.Header{"Impersonate-User": {"bob"}}, wantCode: 403,
			wantMsg:   `users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`,
			wantAsked: []authz.Attributes{at("", "users", "", "", "bob")}},
		{name: "everything allowed", allowed: []string{"users/bob", "groups/g1", "groups/g2", "userextras/scope/a", "uids/u-1"},
			headers: http.Header{"Impersonate-User": {"bob"}, "Impersonate-Group": {"g1", "g2"}, "Impersonate-Uid": {"u-1"},
				"Impersonate-Extra-Scope": {"a"}},
			wantCode: 200, wantUser: &authn.User{Name: "bob", UID: "u-1", Groups: []string{"g1", "g2", authn.AllAuthenticated},
				Extra: map[string][]string{"scope": {"a"}}},
			wantAsked: []authz.Attributes{at("", "users", "", "", "bob"), at("", "groups", "", "", "g1"), at("", "groups", "", "", "g2"),
				at("authentication.platform.io", "userextras", "scope", "", "a"), at("authentication.platform.io", "uids", "", "", "u-1")}},
		{name: "one group forbidden", allowed: []string{"users/bob", "groups/g1"},
			headers:  http.Header{"Impersonate-User": {"bob"}, "Impersonate-Group": {"g1", "system:masters"}},
			wantCode: 403, wantMsg: `User "alice" cannot impersonate resource "groups"`},
		{name: "service account", allowed: []string{"kube/serviceaccounts/builder"},
			headers:  http.Header{"Impersonate-User": {"system:serviceaccount:kube:builder"}},
			wantCode: 200, wantUser: &authn.User{Name: "system:serviceaccount:kube:builder",
				Groups: []string{"system:serviceaccounts", "system:serviceaccounts:kube", authn.AllAuthenticated}},
			wantAsked: []authz.Attributes{at("", "serviceaccounts", "", "kube", "builder")}},
		{name: "anonymous", allowed: []string{"users/system:anonymous"}, headers: http.Header{"Impersonate-User": {"system:anonymous"}},
			wantCode: 200, wantUser: &authn.User{Name: "system:anonymous", Groups: []string{authn.AllUnauthenticated}}},
		{name: "group without user", headers: http.Header{"Impersonate-Group": {"g1"}}, wantCode: 400,
			wantMsg: "without impersonating a user"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			z, asked := authorizer(tc.allowed...)
			var got *authn.User
			var leaked []string
			h := WithImpersonation(zap.NewNop(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got, _ = authn.UserFrom(r.Context())
				for k := range r.Header {
					if strings.HasPrefix(k, "Impersonate-") {
						leaked = append(leaked, k)
					}
				}
			}), z)
			r := httptest.NewRequest("GET", "/api/v1/pods", nil)
			r.Header = tc.headers
			r = r.WithContext(authn.WithUser(r.Context(), alice))
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.wantCode {
				t.Fatalf("code %d, want %d; body %s", w.Code, tc.wantCode, w.Body)
			}
			if tc.wantMsg != "" {
				var st struct{ Message string }
				json.Unmarshal(w.Body.Bytes(), &st)
				if !strings.Contains(st.Message, tc.wantMsg) {
					t.Errorf("message %q, want it to contain %q", st.Message, tc.wantMsg)
				}
			}
			if d := cmp.Diff(tc.wantUser, got); d != "" {
				t.Errorf("user (-want +got):\n%s", d)
			}
			if len(leaked) > 0 {
				t.Errorf("the handler saw %v", leaked)
			}
			if tc.wantAsked != nil {
				if d := cmp.Diff(tc.wantAsked, *asked); d != "" {
					t.Errorf("authorized (-want +got):\n%s", d)
				}
			}
		})
	}
}

// TestParseImpersonationAllocs checks that a request without impersonation
// headers, as nearly all are, costs no allocation.
func TestParseImpersonationAllocs(t *testing.T) {
	h := http.Header{}
	for _, name := range []string{"Accept", "Accept-Encoding", "Authorization", "Content-Type", "User-Agent", "X-Platform-Leader-Lock"} {
		h.Set(name, "value")
	}
	allocs := testing.AllocsPerRun(100, func() {
		if req, err := parseImpersonation(h); req != nil || err != nil {
			t.Fatalf("parseImpersonation: %v, %v; want neither", req, err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per request without impersonation, want 0", allocs)
	}
}
