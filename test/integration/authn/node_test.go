package authn

import (
	"net/http"
	"testing"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestNodeMode: under Node,RBAC a node's certificate reads the secret a pod
// bound to it uses, once the server's pod graph has it, and no other.
func TestNodeMode(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := framework.Start(t, f.options(options.ModeNode, options.ModeRBAC))
	for _, name := range []string{"used", "unused"} {
		s.Do(t, "POST", "/api/v1/namespaces/default/secrets", `{"metadata":{"name":"`+name+`"},"data":{"k":"dg=="}}`).Expect(t, http.StatusCreated)
	}
	s.Do(t, "POST", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"web"},"spec":{"nodeName":"n1",
		"containers":[{"name":"c","image":"nginx"}],"volumes":[{"name":"v","secret":{"secretName":"used"}}]}}`).Expect(t, http.StatusCreated)
	n1 := request{name: "n1", cert: ptr(clientCert(t, f.clientCA, "system:node:n1", "system:nodes"))}
	n2 := request{name: "n2", cert: ptr(clientCert(t, f.clientCA, "system:node:n2", "system:nodes"))}
	waitForOK(t, s, "node n1 reads its pod's secret", n1, "/api/v1/namespaces/default/secrets/used")
	expectGets(t, s, []get{
		{n1, "/api/v1/namespaces/default/secrets/unused", http.StatusForbidden},
		{n2, "/api/v1/namespaces/default/secrets/used", http.StatusForbidden},
	})
}

func ptr[T any](v T) *T { return &v }
