package aggregator

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/platform/pkg/component/authn"
)

func TestSetUser(t *testing.T) {
	tests := []struct {
		name    string
		headers Headers
		in      http.Header
		user    authn.User
		want    http.Header
	}{
		{"credentials and forged identity removed",
			DefaultHeaders,
			http.Header{"Authorization": {"Bearer secret"}, "X-Remote-User": {"admin"}, "X-Remote-Group": {"system:masters"},
				"X-Remote-Extra-Scopes": {"all"}, "Impersonate-User": {"root"}, "Accept": {"application/json"}},
			authn.User{Name: "bob", Groups: []string{"dev", "system:authenticated"}, Extra: map[string][]string{"scopes.example.io/a": {"r", "w"}}},
			http.Header{"Accept": {"application/json"}, "X-Remote-User": {"bob"}, "X-Remote-Group": {"dev", "system:authenticated"},
				"X-Remote-Extra-Scopes.example.io%2fa": {"r", "w"}}}, // canonical form of %2F
		{"configured names, and upstream's removed too",
			Headers{User: "X-Proxy-User", Group: "X-Proxy-Group", ExtraPrefix: "X-Proxy-Extra-"},
			http.Header{"X-Remote-User": {"admin"}, "X-Proxy-Extra-Old": {"x"}},
			authn.User{Name: "bob"},
			http.Header{"X-Proxy-User": {"bob"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &Aggregator{cfg: Config{Headers: tc.headers}}
			h := tc.in.Clone()
			a.setUser(h, &tc.user)
			if diff := cmp.Diff(tc.want, h); diff != "" {
				t.Errorf("headers (-want +got):\n%s", diff)
			}
		})
	}
}
