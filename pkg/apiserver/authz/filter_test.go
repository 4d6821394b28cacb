package authz

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.uber.org/zap"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/component/authn"
)

func TestAttributesFor(t *testing.T) {
	u := &authn.User{Name: "alice"}
	tests := []struct {
		method, path string
		want         Attributes
	}{
		{"GET", "/api/v1/namespaces/default/pods/web", Attributes{Verb: "get", ResourceRequest: true, APIVersion: "v1", Resource: "pods", Namespace: "default", Name: "web"}},
		{"POST", "/api/v1/namespaces/default/pods/web/binding", Attributes{Verb: "create", ResourceRequest: true, APIVersion: "v1", Resource: "pods", Subresource: "binding", Namespace: "default", Name: "web"}},
		{"GET", "/apis/apps/v1/deployments?watch=1", Attributes{Verb: "watch", ResourceRequest: true, APIGroup: "apps", APIVersion: "v1", Resource: "deployments"}},
		{"DELETE", "/apis/batch/v1/namespaces/ns/jobs", Attributes{Verb: "deletecollection", ResourceRequest: true, APIGroup: "batch", APIVersion: "v1", Resource: "jobs", Namespace: "ns"}},
		{"GET", "/api/v1/namespaces/ns", Attributes{Verb: "get", ResourceRequest: true, APIVersion: "v1", Resource: "namespaces", Namespace: "ns", Name: "ns"}},
		{"POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles", Attributes{Verb: "create", ResourceRequest: true, APIGroup: "rbac.authorization.platform.io", APIVersion: "v1", Resource: "roles", Namespace: "ns"}},
		{"GET", "/healthz", Attributes{Verb: "get", Path: "/healthz"}},
		{"GET", "/apis", Attributes{Verb: "get", Path: "/apis"}},
		{"POST", "/custom", Attributes{Verb: "post", Path: "/custom"}},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.path, nil)
			got := AttributesFor(r, u)
			tt.want.User = u
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestUnion(t *testing.T) {
	answer := func(d Decision) Authorizer {
		return Func(func(context.Context, Attributes) (Decision, string, error) { return d, d.String(), nil })
	}
	tests := []struct {
		name  string
		chain Union
		want  Decision
	}{
		{"empty", nil, NoOpinion},
		{"allow first", Union{answer(Allow), answer(Deny)}, Allow},
		{"deny first", Union{answer(Deny), answer(Allow)}, Deny},
		{"no opinion passes on", Union{answer(NoOpinion), answer(Allow)}, Allow},
		{"all no opinion", Union{answer(NoOpinion), answer(NoOpinion)}, NoOpinion},
		{"always deny", Union{AlwaysDeny{}, AlwaysAllow{}}, Deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := tt.chain.Authorize(context.Background(), Attributes{})
			if err != nil || got != tt.want {
				t.Errorf("got %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestWithAuthorizationForbidden(t *testing.T) {
	tests := []struct {
		method, path string
		user         *authn.User
		want         string
	}{
		{"GET", "/api/v1/namespaces/default/pods/web", &authn.User{Name: "alice"},
			`pods "web" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "default"`},
		{"GET", "/apis/apps/v1/deployments", &authn.User{Name: "bob"},
			`deployments.apps is forbidden: User "bob" cannot list resource "deployments" in API group "apps" at the cluster scope`},
		{"PUT", "/apis/apps/v1/namespaces/x/deployments/d/scale", &authn.User{Name: "bob"},
			`deployments.apps "d" is forbidden: User "bob" cannot update resource "deployments/scale" in API group "apps" in the namespace "x"`},
		{"GET", "/metrics", nil,
			`forbidden: User "system:anonymous" cannot get path "/metrics"`},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			reached := false
			h := WithAuthorization(zap.NewNop(), http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true }), Union{})
			r := httptest.NewRequest(tt.method, tt.path, nil)
			if tt.user != nil {
				r = r.WithContext(authn.WithUser(r.Context(), tt.user))
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if reached || rec.Code != http.StatusForbidden {
				t.Fatalf("reached=%v code=%d", reached, rec.Code)
			}
			var st meta.Status
			if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
				t.Fatal(err)
			}
			if st.Reason != meta.StatusReasonForbidden || st.Message != tt.want {
				t.Errorf("got %s %q\nwant %q", st.Reason, st.Message, tt.want)
			}
		})
	}
	allowed := false
	WithAuthorization(zap.NewNop(), http.HandlerFunc(func(http.ResponseWriter, *http.Request) { allowed = true }), AlwaysAllow{}).
		ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/v1/pods", nil))
	if !allowed {
		t.Error("AlwaysAllow did not reach the handler")
	}
}
