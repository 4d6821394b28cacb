package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/authz/abac"
	"platform.io/platform/pkg/apiserver/endpoints"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/authentication/tokenreview"
	"platform.io/platform/pkg/component/authn"
)

const reviewPolicies = `{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","apiGroup":"*","resource":"selfsubjectaccessreviews"}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","apiGroup":"*","resource":"selfsubjectrulesreviews"}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","apiGroup":"*","resource":"selfsubjectreviews"}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"admin","namespace":"*","apiGroup":"*","resource":"*","nonResourcePath":"*"}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"bob","namespace":"projectCaribou","resource":"pods","readonly":true}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"group":"viewers","namespace":"*","apiGroup":"apps","resource":"deployments","readonly":true}}
`

// reviewServer serves the review rows through the real handler and the
// authorization filter, with ABAC as the mode and the user named by the
// X-User header (groups in X-Groups) put into the context, as the
// authentication filter would.
func reviewServer(t *testing.T, z authz.Authorizer, rules authz.RuleResolver, tokens tokenreview.Config) *httptest.Server {
	t.Helper()
	var stores []*registry.Store
	for _, r := range Resources(Config{Authorizer: z, RuleResolver: rules, TokenReviews: tokens}) {
		if r.Virtual != nil {
			stores = append(stores, registry.NewStore(r, registry.Config{}))
		}
	}
	api := endpoints.NewHandler(zap.NewNop(), endpoints.Config{}, stores)
	chain := authz.WithAuthorization(zap.NewNop(), api, z)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if name := r.Header.Get("X-User"); name != "" {
			u := &authn.User{Name: name, Groups: []string{authn.AllAuthenticated}}
			if g := r.Header.Get("X-Groups"); g != "" {
				u.Groups = append(u.Groups, strings.Split(g, ",")...)
			}
			r = r.WithContext(authn.WithUser(r.Context(), u))
		}
		chain.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func abacFrom(policies string) (*abac.Authorizer, error) {
	return abac.Load(strings.NewReader(policies))
}

func loadPolicies(t *testing.T) *abac.Authorizer {
	t.Helper()
	a, err := abacFrom(reviewPolicies)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func do(t *testing.T, srv *httptest.Server, method, path, user, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if user != "" {
		name, groups, _ := strings.Cut(user, "|")
		req.Header.Set("X-User", name)
		req.Header.Set("X-Groups", groups)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	return resp.StatusCode, m
}

func dig(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}

const (
	authzV1      = "/apis/authorization.platform.io/v1/"
	authzV1beta1 = "/apis/authorization.platform.io/v1beta1/"
	authnV1      = "/apis/authentication.platform.io/v1/"
	authnV1beta1 = "/apis/authentication.platform.io/v1beta1/"
)

func TestAccessReviews(t *testing.T) {
	a := loadPolicies(t)
	deny := authz.Func(func(_ context.Context, at authz.Attributes) (authz.Decision, string, error) {
		if at.User != nil && at.User.Name == "mallory" {
			return authz.Deny, "mallory is banned", nil
		}
		if at.Resource == "secrets" {
			return authz.NoOpinion, "", errors.New("secret store unreachable")
		}
		return authz.NoOpinion, "", nil
	})
	srv := reviewServer(t, authz.Union{deny, a}, a, tokenreview.Config{})
	tests := []struct {
		name, path, user, body string
		code                   int
		// status fields wanted, by JSON path joined with "."
		want map[string]any
	}{
		{"sar allowed", authzV1 + "subjectaccessreviews", "admin", `{"spec":{"user":"bob","resourceAttributes":{"verb":"get","resource":"pods","namespace":"projectCaribou"}}}`,
			201, map[string]any{"status.allowed": true, "status.denied": nil, "kind": "SubjectAccessReview", "apiVersion": "authorization.platform.io/v1"}},
		{"sar no opinion", authzV1 + "subjectaccessreviews", "admin", `{"spec":{"user":"bob","resourceAttributes":{"verb":"delete","resource":"pods","namespace":"projectCaribou"}}}`,
			201, map[string]any{"status.allowed": false, "status.denied": nil, "status.reason": "No policy matched."}},
		{"sar denied", authzV1 + "subjectaccessreviews", "admin", `{"spec":{"user":"mallory","nonResourceAttributes":{"verb":"get","path":"/healthz"}}}`,
			201, map[string]any{"status.allowed": false, "status.denied": true, "status.reason": "mallory is banned"}},
		{"sar evaluation error", authzV1 + "subjectaccessreviews", "admin", `{"spec":{"user":"bob","resourceAttributes":{"verb":"get","resource":"secrets","namespace":"projectCaribou"}}}`,
			201, map[string]any{"status.allowed": false, "status.evaluationError": "secret store unreachable"}},
		{"sar groups", authzV1 + "subjectaccessreviews", "admin", `{"spec":{"user":"carol","groups":["viewers"],"resourceAttributes":{"verb":"list","group":"apps","resource":"deployments","namespace":"x"}}}`,
			201, map[string]any{"status.allowed": true}},
		{"sar v1beta1 group on the wire", authzV1beta1 + "subjectaccessreviews", "admin", `{"spec":{"user":"carol","group":["viewers"],"resourceAttributes":{"verb":"list","group":"apps","resource":"deployments","namespace":"x"}}}`,
			201, map[string]any{"status.allowed": true, "apiVersion": "authorization.platform.io/v1beta1"}},
		{"sar v1beta1 groups is not its field", authzV1beta1 + "subjectaccessreviews", "admin", `{"spec":{"user":"carol","resourceAttributes":{"verb":"list","group":"apps","resource":"deployments","namespace":"x"}}}`,
			201, map[string]any{"status.allowed": false}},
		{"sar no subject", authzV1 + "subjectaccessreviews", "admin", `{"spec":{"resourceAttributes":{"verb":"get"}}}`, 422, nil},
		{"sar no attributes", authzV1 + "subjectaccessreviews", "admin", `{"spec":{"user":"bob"}}`, 422, nil},
		{"sar needs create permission", authzV1 + "subjectaccessreviews", "bob", `{"spec":{"user":"bob","nonResourceAttributes":{"verb":"get","path":"/"}}}`,
			403, map[string]any{"reason": "Forbidden"}},
		{"local allowed", authzV1 + "namespaces/projectCaribou/localsubjectaccessreviews", "admin", `{"spec":{"user":"bob","resourceAttributes":{"verb":"watch","resource":"pods","namespace":"projectCaribou"}}}`,
			201, map[string]any{"status.allowed": true, "metadata.namespace": "projectCaribou", "kind": "LocalSubjectAccessReview"}},
		{"local other namespace", authzV1 + "namespaces/projectCaribou/localsubjectaccessreviews", "admin", `{"spec":{"user":"bob","resourceAttributes":{"verb":"get","resource":"pods","namespace":"other"}}}`,
			400, map[string]any{"reason": "BadRequest", "message": "spec.resourceAttributes.namespace must match namespace: projectCaribou"}},
		{"local non-resource", authzV1 + "namespaces/projectCaribou/localsubjectaccessreviews", "admin", `{"spec":{"user":"bob","nonResourceAttributes":{"verb":"get","path":"/"}}}`, 422, nil},
		{"self allowed", authzV1 + "selfsubjectaccessreviews", "bob", `{"spec":{"resourceAttributes":{"verb":"list","resource":"pods","namespace":"projectCaribou"}}}`,
			201, map[string]any{"status.allowed": true, "kind": "SelfSubjectAccessReview"}},
		{"self not allowed", authzV1 + "selfsubjectaccessreviews", "bob", `{"spec":{"resourceAttributes":{"verb":"create","resource":"pods","namespace":"projectCaribou"}}}`,
			201, map[string]any{"status.allowed": false}},
		{"self uses the requester's groups", authzV1 + "selfsubjectaccessreviews", "carol|viewers", `{"spec":{"resourceAttributes":{"verb":"get","group":"apps","resource":"deployments","namespace":"a"}}}`,
			201, map[string]any{"status.allowed": true}},
		{"self anonymous is refused by authorization", authzV1 + "selfsubjectaccessreviews", "", `{"spec":{"nonResourceAttributes":{"verb":"get","path":"/"}}}`,
			403, nil},
		{"self no attributes", authzV1 + "selfsubjectaccessreviews", "bob", `{"spec":{}}`, 422, nil},
		{"rules", authzV1 + "selfsubjectrulesreviews", "bob", `{"spec":{"namespace":"projectCaribou"}}`,
			201, map[string]any{"status.incomplete": false, "kind": "SelfSubjectRulesReview"}},
		{"rules need a namespace", authzV1 + "selfsubjectrulesreviews", "bob", `{"spec":{}}`, 400, map[string]any{"message": "no namespace on request"}},
		{"whoami", authnV1 + "selfsubjectreviews", "carol|viewers", `{}`,
			201, map[string]any{"status.userInfo.username": "carol", "status.userInfo.groups": []any{"system:authenticated", "viewers"}, "kind": "SelfSubjectReview"}},
		{"whoami v1beta1", authnV1beta1 + "selfsubjectreviews", "carol", `{}`,
			201, map[string]any{"status.userInfo.username": "carol", "apiVersion": "authentication.platform.io/v1beta1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, got := do(t, srv, "POST", tt.path, tt.user, tt.body)
			if code != tt.code {
				t.Fatalf("code %d, want %d: %v", code, tt.code, got)
			}
			for k, want := range tt.want {
				if v := dig(got, strings.Split(k, ".")...); !cmp.Equal(v, want) {
					t.Errorf("%s = %#v, want %#v (%v)", k, v, want, got)
				}
			}
		})
	}
}

// TestRulesReviewContent: can-i --list shows the requester's ABAC rules in
// the namespace asked for.
func TestRulesReviewContent(t *testing.T) {
	a := loadPolicies(t)
	srv := reviewServer(t, a, a, tokenreview.Config{})
	_, got := do(t, srv, "POST", authzV1+"selfsubjectrulesreviews", "bob", `{"spec":{"namespace":"projectCaribou"}}`)
	rules, _ := dig(got, "status", "resourceRules").([]any)
	var names []string
	for _, r := range rules {
		names = append(names, strings.Join(toStrings(dig(r.(map[string]any), "resources")), ","))
	}
	slices.Sort(names)
	// The policies on the cluster-scoped review resources name no
	// namespace, so they are not rules in projectCaribou.
	want := []string{"pods"}
	if d := cmp.Diff(want, names); d != "" {
		t.Fatalf("rules (-want +got):\n%s\n%v", d, got)
	}
	if nr := dig(got, "status", "nonResourceRules"); !cmp.Equal(nr, []any{}) {
		t.Errorf("nonResourceRules = %#v, want []", nr)
	}
	_, admin := do(t, srv, "POST", authzV1+"selfsubjectrulesreviews", "admin", `{"spec":{"namespace":"any"}}`)
	wantAdmin := map[string]any{
		"resourceRules":    []any{map[string]any{"verbs": []any{"*"}, "apiGroups": []any{"*"}, "resources": []any{"*"}}},
		"nonResourceRules": []any{map[string]any{"verbs": []any{"*"}, "nonResourceURLs": []any{"*"}}},
		"incomplete":       false,
	}
	if d := cmp.Diff(wantAdmin, admin["status"]); d != "" {
		t.Errorf("admin (-want +got):\n%s", d)
	}
}

func toStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, s := range l {
		out = append(out, s.(string))
	}
	return out
}

// tokens is a token chain for the test: "good" authenticates for the API
// audience, "vault" for the vault audience only, "broken" is refused.
type tokens struct{}

func (tokens) AuthenticateTokenFor(_ context.Context, token string, auds []string) (*authn.User, []string, bool, error) {
	switch token {
	case "good":
		return apiauthnAudiences(auds, "api", &authn.User{Name: "svc", UID: "u1", Groups: []string{"g"}, Extra: map[string][]string{"k": {"v"}}})
	case "vault":
		return apiauthnAudiences(auds, "vault", &authn.User{Name: "vaulted"})
	case "broken":
		return nil, nil, false, errors.New("token expired")
	case "liar":
		return &authn.User{Name: "liar"}, []string{"elsewhere"}, true, nil
	}
	return nil, nil, false, nil
}

func apiauthnAudiences(asked []string, has string, u *authn.User) (*authn.User, []string, bool, error) {
	if !slices.Contains(asked, has) {
		return nil, nil, false, errors.New("token audiences not accepted")
	}
	return u, []string{has}, true, nil
}

func TestTokenReviews(t *testing.T) {
	srv := reviewServer(t, authz.AlwaysAllow{}, authz.AlwaysAllow{}, tokenreview.Config{Authenticator: tokens{}, APIAudiences: []string{"api"}})
	tests := []struct {
		name, path, body string
		code             int
		want             map[string]any
	}{
		{"v1 good", authnV1, `{"spec":{"token":"good"}}`, 201, map[string]any{
			"status.authenticated": true, "status.user.username": "svc", "status.user.uid": "u1", "status.user.groups": []any{"g", "system:authenticated"},
			"status.user.extra": map[string]any{"k": []any{"v"}}, "status.audiences": []any{"api"}, "spec.token": nil}},
		{"v1beta1 good", authnV1beta1, `{"spec":{"token":"good"}}`, 201, map[string]any{
			"status.authenticated": true, "status.user.username": "svc", "apiVersion": "authentication.platform.io/v1beta1", "spec.token": nil}},
		{"unknown token", authnV1, `{"spec":{"token":"who"}}`, 201, map[string]any{"status.authenticated": nil, "status.error": nil}},
		{"refused token", authnV1, `{"spec":{"token":"broken"}}`, 201, map[string]any{"status.authenticated": nil, "status.error": "token expired"}},
		{"other audience not asked", authnV1, `{"spec":{"token":"vault"}}`, 201, map[string]any{"status.authenticated": nil, "status.error": "token audiences not accepted"}},
		{"other audience asked", authnV1, `{"spec":{"token":"vault","audiences":["vault"]}}`, 201, map[string]any{"status.authenticated": true, "status.audiences": []any{"vault"}}},
		{"authenticator ignores audiences", authnV1, `{"spec":{"token":"liar"}}`, 500, nil},
		{"no token", authnV1, `{"spec":{}}`, 400, map[string]any{"reason": "BadRequest"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, got := do(t, srv, "POST", tt.path+"tokenreviews", "admin", tt.body)
			if code != tt.code {
				t.Fatalf("code %d, want %d: %v", code, tt.code, got)
			}
			for k, want := range tt.want {
				if v := dig(got, strings.Split(k, ".")...); !cmp.Equal(v, want) {
					t.Errorf("%s = %#v, want %#v (%v)", k, v, want, got)
				}
			}
		})
	}
}

// TestReviewsVirtual: every review resource is create-only, advertised so
// in discovery, and refuses reads.
func TestReviewsVirtual(t *testing.T) {
	srv := reviewServer(t, authz.AlwaysAllow{}, authz.AlwaysAllow{}, tokenreview.Config{})
	paths := []string{
		authzV1 + "subjectaccessreviews", authzV1beta1 + "subjectaccessreviews", authzV1 + "selfsubjectaccessreviews",
		authzV1 + "selfsubjectrulesreviews", authzV1 + "namespaces/ns/localsubjectaccessreviews",
		authnV1 + "tokenreviews", authnV1beta1 + "tokenreviews", authnV1 + "selfsubjectreviews", authnV1beta1 + "selfsubjectreviews",
	}
	for _, p := range paths {
		for _, m := range []string{"GET", "DELETE"} {
			for _, suffix := range []string{"", "/x"} {
				if code, got := do(t, srv, m, p+suffix, "admin", ""); code != http.StatusMethodNotAllowed {
					t.Errorf("%s %s%s: %d %v", m, p, suffix, code, got)
				}
			}
		}
	}
	want := map[string][]string{
		authzV1:      {"localsubjectaccessreviews", "selfsubjectaccessreviews", "selfsubjectrulesreviews", "subjectaccessreviews"},
		authzV1beta1: {"subjectaccessreviews"},
		authnV1:      {"selfsubjectreviews", "tokenreviews"},
		authnV1beta1: {"selfsubjectreviews", "tokenreviews"},
	}
	for gv, names := range want {
		_, list := do(t, srv, "GET", strings.TrimSuffix(gv, "/"), "admin", "")
		var got []string
		for _, r := range list["resources"].([]any) {
			res := r.(map[string]any)
			if v := strings.Join(toStrings(res["verbs"]), ","); v != "create" {
				t.Errorf("%s %s verbs %s", gv, res["name"], v)
			}
			got = append(got, res["name"].(string))
		}
		slices.Sort(got)
		if d := cmp.Diff(names, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", gv, d)
		}
	}
}
