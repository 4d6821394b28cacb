package authn

import (
	"fmt"
	"net/http"
	"testing"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestTokenReview: TokenReview answers with the request chain's token
// methods (token file, bootstrap tokens, webhook), as upstream.
func TestTokenReview(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := framework.Start(t, f.options(options.ModeAlwaysAllow))
	bootstrapSecret(t, s)
	review := func(token string, audiences ...string) map[string]any {
		t.Helper()
		body := map[string]any{"apiVersion": "authentication.platform.io/v1", "kind": "TokenReview",
			"spec": map[string]any{"token": token, "audiences": audiences}}
		return s.Do(t, "POST", "/apis/authentication.platform.io/v1/tokenreviews", body).Expect(t, http.StatusCreated).Map(t)["status"].(map[string]any)
	}
	for _, tc := range []struct {
		token     string
		audiences []string
		user      string
		groups    string
	}{
		{token: "static-token", user: "tim", groups: "[devs qa system:authenticated]"},
		{token: "abcdef.0123456789abcdef", user: "system:bootstrap:abcdef",
			groups: "[system:bootstrappers system:bootstrappers:nodes system:authenticated]"},
		{token: "hook-token", user: "hank", groups: "[hooked system:authenticated]"},
		{token: "no-such-token"},
		// Without --api-audiences these methods serve no named audience.
		{token: "static-token", audiences: []string{"vault"}},
	} {
		st := review(tc.token, tc.audiences...)
		if tc.user == "" {
			if st["authenticated"] == true {
				t.Errorf("%s for %v: authenticated %v", tc.token, tc.audiences, st)
			}
			continue
		}
		u, _ := st["user"].(map[string]any)
		if st["authenticated"] != true || u["username"] != tc.user || fmt.Sprint(u["groups"]) != tc.groups {
			t.Errorf("%s: %v, want %s in %s", tc.token, st, tc.user, tc.groups)
		}
	}
}
