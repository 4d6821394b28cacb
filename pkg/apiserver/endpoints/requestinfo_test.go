package endpoints

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestParseRequestInfo(t *testing.T) {
	cases := []struct {
		method, url                                   string
		resource, verb, ns, name, sub, group, version string
		isResource                                    bool
	}{
		{"GET", "/api", "", "", "", "", "", "", "", false},
		{"GET", "/api/v1", "", "", "", "", "", "", "v1", false},
		{"GET", "/apis/apps", "", "", "", "", "", "apps", "", false},
		{"GET", "/api/v1/pods", "pods", "list", "", "", "", "", "v1", true},
		{"GET", "/api/v1/pods?watch=1", "pods", "watch", "", "", "", "", "v1", true},
		{"GET", "/api/v1/namespaces/a/pods/p", "pods", "get", "a", "p", "", "", "v1", true},
		{"PUT", "/api/v1/namespaces/a/pods/p/status", "pods", "update", "a", "p", "status", "", "v1", true},
		{"POST", "/api/v1/namespaces/a/pods/p/binding", "pods", "create", "a", "p", "binding", "", "v1", true},
		{"GET", "/api/v1/namespaces", "namespaces", "list", "", "", "", "", "v1", true},
		{"GET", "/api/v1/namespaces/a", "namespaces", "get", "", "a", "", "", "v1", true},
		{"PUT", "/api/v1/namespaces/a/finalize", "namespaces", "update", "", "a", "finalize", "", "v1", true},
		{"GET", "/api/v1/namespaces/a/status", "namespaces", "get", "", "a", "status", "", "v1", true},
		{"DELETE", "/apis/apps/v1/namespaces/a/deployments", "deployments", "deletecollection", "a", "", "", "apps", "v1", true},
		{"DELETE", "/apis/apps/v1/namespaces/a/deployments/d", "deployments", "delete", "a", "d", "", "apps", "v1", true},
		{"PATCH", "/apis/apps/v1/namespaces/a/deployments/d/scale", "deployments", "patch", "a", "d", "scale", "apps", "v1", true},
		{"GET", "/apis/apps/v1/watch/namespaces/a/deployments/d", "deployments", "watch", "a", "d", "", "apps", "v1", true},
		{"GET", "/apis/apps/v1/watch/deployments", "deployments", "watch", "", "", "", "apps", "v1", true},
		// An empty segment would shift every name; such a path names no resource.
		{"PATCH", "//api//v1//namespaces", "", "", "", "", "", "", "", false},
		{"GET", "/apis/apps/v1/namespaces//deployments", "", "", "", "", "", "", "", false},
		// A bare watch prefix names no resource either.
		{"GET", "/api/v1/watch", "", "", "", "", "", "", "v1", false},
		{"GET", "/apis/apps/v1/watch/", "", "", "", "", "", "apps", "v1", false},
	}
	for _, c := range cases {
		info := ParseRequestInfo(httptest.NewRequest(c.method, c.url, nil))
		got := []any{info.IsResourceRequest, info.Resource, info.Verb, info.Namespace, info.Name, info.Subresource, info.APIGroup, info.APIVersion}
		want := []any{c.isResource, c.resource, c.verb, c.ns, c.name, c.sub, c.group, c.version}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s %s: got %v, want %v", c.method, c.url, got, want)
				break
			}
		}
	}
}

// TestWithRequestInfo: behind the filter every reader gets the one
// RequestInfo parsed for the request; without it each parses its own.
func TestWithRequestInfo(t *testing.T) {
	var seen []*RequestInfo
	read := http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		seen = append(seen, RequestInfoFor(r), RequestInfoFor(r))
	})
	r := httptest.NewRequest(http.MethodGet, "/api/v1/namespaces/ns/pods/p?watch=true", nil)
	WithRequestInfo(read).ServeHTTP(httptest.NewRecorder(), r)
	read.ServeHTTP(httptest.NewRecorder(), r)
	if len(seen) != 4 || seen[0] != seen[1] || seen[2] == seen[3] {
		t.Fatalf("behind the filter the readers share one RequestInfo, without it each parses: got %p %p, %p %p", seen[0], seen[1], seen[2], seen[3])
	}
	for _, info := range seen {
		if info.Verb != "get" || info.Namespace != "ns" || info.Resource != "pods" || info.Name != "p" {
			t.Fatalf("RequestInfo = %+v", info)
		}
	}
}
