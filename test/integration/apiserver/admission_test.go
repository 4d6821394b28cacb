package apiserver

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

const tolerationPod = `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`

// TestAdmissionDefaultPlugins: the default-on plugins act on a server
// started with no admission flags: NamespaceLifecycle refuses content in a
// missing namespace and the deletion of platform-system,
// DefaultTolerationSeconds adds a pod's tolerations, and the per-plugin
// metrics are served.
func TestAdmissionDefaultPlugins(t *testing.T) {
	s := framework.Start(t)
	s.Do(t, "POST", "/api/v1/namespaces/nowhere/configmaps", `{"metadata":{"name":"c"}}`).ExpectStatus(t, http.StatusNotFound, "NotFound")
	st := s.Do(t, "DELETE", "/api/v1/namespaces/platform-system", nil).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	if msg, _ := st["message"].(string); !strings.Contains(msg, "this namespace may not be deleted") {
		t.Errorf("message %q", msg)
	}
	s.Do(t, "GET", "/api/v1/namespaces/platform-system", nil).Expect(t, http.StatusOK)

	createNamespace(t, s, "adm")
	pod := s.Do(t, "POST", "/api/v1/namespaces/adm/pods", tolerationPod).Expect(t, http.StatusCreated).Map(t)
	if n := len(get(pod, "spec", "tolerations").([]any)); n != 2 {
		t.Errorf("pod has %d tolerations, want the 2 defaults", n)
	}

	resp, err := s.Client.Get(s.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{
		`apiserver_admission_controller_admission_duration_seconds_count{name="NamespaceLifecycle",operation="CREATE",rejected="true",type="validate"}`,
		`apiserver_admission_controller_admission_duration_seconds_count{name="DefaultTolerationSeconds",operation="CREATE",rejected="false",type="admit"}`,
		`apiserver_admission_step_admission_duration_seconds_count{operation="DELETE",rejected="true",type="validate"}`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestAdmissionDisabledPlugins: --disable-admission-plugins turns plugins
// off: a pod gets no default tolerations and, as upstream without
// NamespaceLifecycle, an object can be created in a namespace that does
// not exist.
func TestAdmissionDisabledPlugins(t *testing.T) {
	s := framework.Start(t, func(o *options.Options) {
		o.Admission.Disable = []string{"NamespaceLifecycle", "DefaultTolerationSeconds"}
	})
	s.Do(t, "POST", "/api/v1/namespaces/nowhere/configmaps", `{"metadata":{"name":"c"}}`).Expect(t, http.StatusCreated)
	createNamespace(t, s, "adm")
	pod := s.Do(t, "POST", "/api/v1/namespaces/adm/pods", tolerationPod).Expect(t, http.StatusCreated).Map(t)
	if tol := get(pod, "spec", "tolerations"); tol != nil {
		t.Errorf("pod has tolerations %v with DefaultTolerationSeconds off", tol)
	}
}
