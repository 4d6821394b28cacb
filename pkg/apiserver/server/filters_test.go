package server

import (
	"net/http/httptest"
	"testing"

	"platform.io/platform/pkg/apiserver/endpoints"
	"platform.io/platform/pkg/component/authn"
)

func TestExemptFromLimits(t *testing.T) {
	lease := "/apis/coordination.platform.io/v1/namespaces/platform-node-lease/leases/node-1"
	for _, tc := range []struct {
		name, method, path string
		groups             []string
		want               bool
	}{
		{"masters", "GET", "/api/v1/pods", []string{authn.SystemPrivilegedGroup}, true},
		{"plain list", "GET", "/api/v1/pods", nil, false},
		{"lease get", "GET", lease, nil, true},
		{"lease update", "PUT", lease, nil, true},
		{"lease create", "POST", "/apis/coordination.platform.io/v1/namespaces/platform-system/leases", nil, true},
		{"lease list", "GET", "/apis/coordination.platform.io/v1/leases", nil, false},
		{"lease delete", "DELETE", lease, nil, false},
		{"lease patch", "PATCH", lease, nil, false},
		{"system endpoints lock", "PUT", "/api/v1/namespaces/platform-system/endpoints/platform-scheduler", nil, true},
		{"system configmap lock", "GET", "/api/v1/namespaces/platform-system/configmaps/lock", nil, true},
		{"other namespace endpoints", "PUT", "/api/v1/namespaces/default/endpoints/web", nil, false},
		{"system secrets", "GET", "/api/v1/namespaces/platform-system/secrets/s", nil, false},
		{"system endpoints list", "GET", "/api/v1/namespaces/platform-system/endpoints", nil, false},
		{"subresource", "PUT", "/api/v1/namespaces/platform-system/configmaps/lock/status", nil, false},
		{"non-resource", "GET", "/apis", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.path, nil)
			r = r.WithContext(authn.WithUser(r.Context(), &authn.User{Name: "u", Groups: tc.groups}))
			if got := exemptFromLimits(r, endpoints.ParseRequestInfo(r)); got != tc.want {
				t.Errorf("%s %s: exempt %v, want %v", tc.method, tc.path, got, tc.want)
			}
		})
	}
}
