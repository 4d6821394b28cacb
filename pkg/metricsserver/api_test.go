package metricsserver

import (
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	authzv1 "platform.io/client/api/authorization/v1"
)

func TestResourceAttributes(t *testing.T) {
	tests := []struct {
		path string
		want *authzv1.ResourceAttributes
	}{
		{"/apis", nil},
		{"/apis/metrics.k8s.io", nil},
		{"/apis/metrics.k8s.io/v1beta1", nil},
		{"/apis/metrics.k8s.io/v1beta1/nodes",
			&authzv1.ResourceAttributes{Verb: "list", Group: "metrics.k8s.io", Version: "v1beta1", Resource: "nodes"}},
		{"/apis/metrics.platform.io/v1beta1/nodes/n1",
			&authzv1.ResourceAttributes{Verb: "get", Group: "metrics.platform.io", Version: "v1beta1", Resource: "nodes", Name: "n1"}},
		{"/apis/metrics.k8s.io/v1beta1/pods",
			&authzv1.ResourceAttributes{Verb: "list", Group: "metrics.k8s.io", Version: "v1beta1", Resource: "pods"}},
		{"/apis/metrics.k8s.io/v1beta1/namespaces/ns/pods",
			&authzv1.ResourceAttributes{Namespace: "ns", Verb: "list", Group: "metrics.k8s.io", Version: "v1beta1", Resource: "pods"}},
		{"/apis/metrics.k8s.io/v1beta1/namespaces/ns/pods/p?watch=true",
			&authzv1.ResourceAttributes{Namespace: "ns", Verb: "watch", Group: "metrics.k8s.io", Version: "v1beta1", Resource: "pods", Name: "p"}},
		{"/apis/metrics.k8s.io/v1beta1/namespaces/ns/pods/p",
			&authzv1.ResourceAttributes{Namespace: "ns", Verb: "get", Group: "metrics.k8s.io", Version: "v1beta1", Resource: "pods", Name: "p"}},
		// Not the API's: authorized by path.
		{"/apis/apps/v1/deployments", nil},
		{"/apis/metrics.k8s.io/v1/nodes", nil},
		{"/apis/metrics.k8s.io/v1beta1/namespaces/ns/nodes", nil},
		{"/apis/metrics.k8s.io/v1beta1/pods/a/b", nil},
		{"/apisx/metrics.k8s.io/v1beta1/nodes", nil},
		{"/metrics", nil},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got := ResourceAttributes(httptest.NewRequest("GET", tt.path, nil))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestNegotiate(t *testing.T) {
	tests := []struct {
		accept, want string
		ok           bool
	}{
		{"", "application/json", true},
		{"application/vnd.kubernetes.protobuf, */*", "application/vnd.kubernetes.protobuf", true},
		{"application/vnd.platform.protobuf", "application/vnd.platform.protobuf", true},
		{"application/json;as=Table;v=v1;g=meta.k8s.io,application/json", "application/json", true},
		{"application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json", "application/json", true},
		{"text/html", "", false},
		{"application/json;as=Table;v=v1;g=meta.k8s.io", "", false},
	}
	for _, tt := range tests {
		got, ok := negotiate(tt.accept)
		if got != tt.want || ok != tt.ok {
			t.Errorf("negotiate(%q) = %q, %v; want %q, %v", tt.accept, got, ok, tt.want, tt.ok)
		}
	}
}
