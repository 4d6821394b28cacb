package serviceaccount

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/test/integration/framework"
)

// TestServiceAccountAdmission: with the ServiceAccount plugin on (and no
// controller manager creating default accounts), a pod in a namespace
// without a default account is refused in upstream's words; once the
// account exists the pod gets it, the projected token volume and a
// read-only mount in each container; automountServiceAccountToken=false
// leaves the pod alone; the account cannot change afterwards.
func TestServiceAccountAdmission(t *testing.T) {
	t.Parallel()
	s := framework.Start(t, framework.EnableAdmission("ServiceAccount"))
	s.Do(t, "POST", "/api/v1/namespaces", `{"metadata":{"name":"team"}}`).Expect(t, http.StatusCreated)
	const podBody = `{"metadata":{"name":"%s"},"spec":{%s"initContainers":[{"name":"init","image":"busybox"}],
		"containers":[{"name":"a","image":"nginx"},{"name":"b","image":"nginx","volumeMounts":[{"name":"own","mountPath":"/var/run/secrets/platform.io/serviceaccount"}]}],
		"volumes":[{"name":"own","emptyDir":{}}]}}`
	pod := func(name, spec string) string {
		return strings.Replace(strings.Replace(podBody, "%s", name, 1), "%s", spec, 1)
	}

	r := s.Do(t, "POST", "/api/v1/namespaces/team/pods", pod("web", "")).Expect(t, http.StatusForbidden)
	if msg := r.Map(t)["message"]; msg != `pods "web" is forbidden: error looking up service account team/default: serviceaccount "default" not found` {
		t.Errorf("refusal without a default account: %q", msg)
	}
	r = s.Do(t, "POST", "/api/v1/namespaces/team/pods", pod("web", `"serviceAccountName":"ghost",`)).Expect(t, http.StatusForbidden)
	if msg := r.Map(t)["message"]; msg != `pods "web" is forbidden: error looking up service account team/ghost: serviceaccount "ghost" not found` {
		t.Errorf("refusal of a missing account: %q", msg)
	}

	s.Do(t, "POST", "/api/v1/namespaces/team/serviceaccounts", `{"metadata":{"name":"default"}}`).Expect(t, http.StatusCreated)
	// The plugin reads the account through the watch cache, which waits
	// for the store's own writes: no retry needed.
	s.Do(t, "POST", "/api/v1/namespaces/team/pods", pod("web", "")).Expect(t, http.StatusCreated)
	var got corev1.Pod
	s.Do(t, "GET", "/api/v1/namespaces/team/pods/web", nil).Expect(t, http.StatusOK).Into(t, &got)
	if got.Spec.ServiceAccountName != "default" {
		t.Errorf("serviceAccountName %q, want default", got.Spec.ServiceAccountName)
	}
	var vol *corev1.Volume
	for i := range got.Spec.Volumes {
		if strings.HasPrefix(got.Spec.Volumes[i].Name, "platform-api-access-") {
			vol = &got.Spec.Volumes[i]
		}
	}
	if vol == nil || !regexp.MustCompile(`^platform-api-access-[a-z0-9]{5}$`).MatchString(vol.Name) || vol.Projected == nil {
		t.Fatalf("no projected platform-api-access-xxxxx volume: %+v", got.Spec.Volumes)
	}
	src, _ := json.Marshal(vol.Projected)
	const wantSrc = `{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},` +
		`{"configMap":{"name":"platform-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},` +
		`{"downwardAPI":{"items":[{"path":"namespace","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}],"defaultMode":420}`
	if string(src) != wantSrc {
		t.Errorf("volume source\n got %s\nwant %s", src, wantSrc)
	}
	want := corev1.VolumeMount{Name: vol.Name, ReadOnly: true, MountPath: "/var/run/secrets/platform.io/serviceaccount"}
	for _, c := range []struct {
		c     corev1.Container
		mount bool
	}{{got.Spec.InitContainers[0], true}, {got.Spec.Containers[0], true}, {got.Spec.Containers[1], false}} {
		has := false
		for _, m := range c.c.VolumeMounts {
			has = has || m == want
		}
		if has != c.mount {
			t.Errorf("container %s: token mounted %v, want %v (mounts %+v)", c.c.Name, has, c.mount, c.c.VolumeMounts)
		}
	}

	// The account cannot change.
	patch := `{"spec":{"serviceAccountName":"other"}}`
	s.Do(t, "PATCH", "/api/v1/namespaces/team/pods/web", patch, framework.Header{"Content-Type": "application/merge-patch+json"}).
		Expect(t, http.StatusUnprocessableEntity)

	s.Do(t, "POST", "/api/v1/namespaces/team/pods", pod("bare", `"automountServiceAccountToken":false,`)).Expect(t, http.StatusCreated)
	var bare corev1.Pod
	s.Do(t, "GET", "/api/v1/namespaces/team/pods/bare", nil).Expect(t, http.StatusOK).Into(t, &bare)
	if len(bare.Spec.Volumes) != 1 || len(bare.Spec.Containers[0].VolumeMounts) != 0 {
		t.Errorf("automountServiceAccountToken=false: volumes %+v, mounts %+v", bare.Spec.Volumes, bare.Spec.Containers[0].VolumeMounts)
	}
}
