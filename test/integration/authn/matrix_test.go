package authn

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// permission is what one matrix user is granted: one verb on one resource
// or subresource.
type permission struct {
	group, resource, verb string
}

func (p permission) user() string {
	return strings.NewReplacer("/", "-", ".", "-").Replace("u-" + p.resource + "-" + p.verb)
}

// matrixRequest is one request of the matrix with the permission it needs.
// Writes are dry runs: a dry run needs exactly the permission of the real
// request, and leaves the fixtures as they were for the next user.
type matrixRequest struct {
	need         permission
	method, path string
	body         string
	ok           int
}

const (
	cmPath     = "/api/v1/namespaces/m/configmaps"
	deployPath = "/apis/apps/v1/namespaces/m/deployments"
	deployment = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"m"},` +
		`"spec":{"replicas":1,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`
)

func matrixRequests() []matrixRequest {
	cm := func(verb string) permission { return permission{"", "configmaps", verb} }
	sub := func(s, verb string) permission { return permission{"apps", "deployments/" + s, verb} }
	return []matrixRequest{
		{cm("get"), "GET", cmPath + "/c", "", 200},
		{cm("list"), "GET", cmPath, "", 200},
		{cm("watch"), "GET", cmPath + "?watch=1&timeoutSeconds=1", "", 200},
		{cm("create"), "POST", cmPath + "?dryRun=All", `{"metadata":{"name":"new"}}`, 201},
		{cm("update"), "PUT", cmPath + "/c?dryRun=All", `{"metadata":{"name":"c"},"data":{"k":"v2"}}`, 200},
		{cm("patch"), "PATCH", cmPath + "/c?dryRun=All", `{"data":{"k":"v3"}}`, 200},
		{cm("delete"), "DELETE", cmPath + "/c?dryRun=All", "", 200},
		{cm("deletecollection"), "DELETE", cmPath + "?dryRun=All", "", 200},
		{sub("scale", "get"), "GET", deployPath + "/d/scale", "", 200},
		{sub("scale", "update"), "PUT", deployPath + "/d/scale?dryRun=All",
			`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"d","namespace":"m"},"spec":{"replicas":2}}`, 200},
		{sub("scale", "patch"), "PATCH", deployPath + "/d/scale?dryRun=All", `{"spec":{"replicas":3}}`, 200},
		{sub("status", "get"), "GET", deployPath + "/d/status", "", 200},
		{sub("status", "update"), "PUT", deployPath + "/d/status?dryRun=All", deployment, 200},
		{sub("status", "patch"), "PATCH", deployPath + "/d/status?dryRun=All", `{"status":{"observedGeneration":1}}`, 200},
	}
}

// TestVerbsModesSubresources is the matrix of verbs x modes x
// subresources on a real server. Under RBAC, each user is bound to one
// verb on one resource or subresource, and every request of the matrix is
// allowed exactly when it is that user's (a subresource is authorized
// apart from its resource, and a dry run like the real request); under
// AlwaysDeny every request is 403; under AlwaysAllow every one passes.
func TestVerbsModesSubresources(t *testing.T) {
	t.Parallel()
	reqs := matrixRequests()
	for _, mode := range []string{options.ModeRBAC, options.ModeAlwaysDeny, options.ModeAlwaysAllow} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			s, call := startMatrix(t, mode, reqs)
			for _, owner := range reqs {
				for _, r := range reqs {
					want := r.ok
					switch {
					case mode == options.ModeAlwaysDeny:
						want = http.StatusForbidden
					case mode == options.ModeRBAC && r.need != owner.need:
						want = http.StatusForbidden
					}
					if got, body := call(owner.need.user(), r); got != want {
						t.Errorf("%s %s %s as %s: %d, want %d: %s", mode, r.method, r.path, owner.need.user(), got, want, body)
					}
				}
			}
			// The dry runs stored nothing.
			s.Do(t, "GET", cmPath+"/new", nil).Expect(t, http.StatusNotFound)
			s.Do(t, "GET", cmPath+"/c", nil).Expect(t, http.StatusOK)
		})
	}
}

// startMatrix runs a server in mode with a token per matrix user, the
// fixtures (namespace m, configmap c, deployment d) and, for RBAC, a Role
// and RoleBinding per user; call sends a request as a user.
func startMatrix(t *testing.T, mode string, reqs []matrixRequest) (*framework.Server, func(user string, r matrixRequest) (int, string)) {
	t.Helper()
	f := newFixture(t)
	var tokens []string
	for _, r := range reqs {
		tokens = append(tokens, fmt.Sprintf("tok-%s,%s,%s", r.need.user(), r.need.user(), r.need.user()))
	}
	tokenFile := f.write(t, "matrix-tokens.csv", strings.Join(tokens, "\n")+"\n")
	s := framework.Start(t, func(o *options.Options) {
		o.Authz.Modes = []string{mode}
		o.Authn.TokenAuthFile = tokenFile
	})
	// The insecure port is system:unsecured, outside every mode.
	s.Do(t, "POST", "/api/v1/namespaces", `{"metadata":{"name":"m"}}`).Expect(t, http.StatusCreated)
	s.Do(t, "POST", cmPath, `{"metadata":{"name":"c"},"data":{"k":"v"}}`).Expect(t, http.StatusCreated)
	s.Do(t, "POST", deployPath, deployment).Expect(t, http.StatusCreated)
	if mode == options.ModeRBAC {
		for _, r := range reqs {
			u := r.need.user()
			s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/namespaces/m/roles", fmt.Sprintf(
				`{"metadata":{"name":%q},"rules":[{"apiGroups":[%q],"resources":[%q],"verbs":[%q]}]}`,
				u, r.need.group, r.need.resource, r.need.verb)).Expect(t, http.StatusCreated)
			s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/namespaces/m/rolebindings", fmt.Sprintf(
				`{"metadata":{"name":%q},"roleRef":{"apiGroup":"rbac.authorization.platform.io","kind":"Role","name":%q},`+
					`"subjects":[{"apiGroup":"rbac.authorization.platform.io","kind":"User","name":%q}]}`, u, u, u)).Expect(t, http.StatusCreated)
		}
	}
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: s.TLSConfig(t, nil)}}
	t.Cleanup(c.CloseIdleConnections)
	call := func(user string, r matrixRequest) (int, string) {
		t.Helper()
		req, err := http.NewRequest(r.method, s.SecureURL+r.path, strings.NewReader(r.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer tok-"+user)
		req.Header.Set("Content-Type", "application/json")
		if r.method == "PATCH" {
			req.Header.Set("Content-Type", "application/merge-patch+json")
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", r.method, r.path, err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return resp.StatusCode, string(body)
	}
	if mode == options.ModeRBAC {
		// The RBAC index follows its watches: wait until the last binding
		// counts.
		last := reqs[len(reqs)-1]
		waitFor(t, "the last binding in the RBAC index", func() bool {
			code, _ := call(last.need.user(), last)
			return code == last.ok
		})
	}
	return s, call
}
