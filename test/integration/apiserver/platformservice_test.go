package apiserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestPlatformService: every server keeps the platform Service; with the
// lease reconciler its Endpoints list the server's advertise address and
// secure port, with none they are left alone; a server stopping gracefully
// removes its address.
func TestPlatformService(t *testing.T) {
	t.Parallel()
	for _, typ := range []string{options.ReconcilerLease, options.ReconcilerNone} {
		t.Run(typ, func(t *testing.T) {
			t.Parallel()
			s := framework.Start(t, func(o *options.Options) {
				o.Reconciler.Type = typ
				o.Generic.AdvertiseAddress = []byte{127, 0, 0, 1}
			})
			u, err := url.Parse(s.SecureURL)
			if err != nil {
				t.Fatal(err)
			}
			port, _ := strconv.Atoi(u.Port())
			var svc map[string]any
			waitFor(t, "the platform service", func() bool {
				r := s.Do(t, "GET", "/api/v1/namespaces/default/services/platform", nil)
				if r.Code == http.StatusOK {
					svc = r.Map(t)
				}
				return r.Code == http.StatusOK
			})
			spec := svc["spec"].(map[string]any)
			ports := spec["ports"].([]any)
			p := ports[0].(map[string]any)
			if spec["type"] != "ClusterIP" || len(ports) != 1 || p["name"] != "https" || p["port"] != float64(443) || p["targetPort"] != float64(port) || spec["selector"] != nil {
				t.Errorf("service spec %v, want ClusterIP, no selector, one port https 443 -> %d", spec, port)
			}

			ep := "/api/v1/namespaces/default/endpoints/platform"
			if typ == options.ReconcilerNone {
				s.Do(t, "GET", ep, nil).Expect(t, http.StatusNotFound)
				return
			}
			want := []any{map[string]any{
				"addresses": []any{map[string]any{"ip": "127.0.0.1"}},
				"ports":     []any{map[string]any{"name": "https", "port": float64(port), "protocol": "TCP"}},
			}}
			waitFor(t, "this server in the platform endpoints", func() bool {
				r := s.Do(t, "GET", ep, nil)
				return r.Code == http.StatusOK && equalJSON(r.Map(t)["subsets"], want)
			})
			// A second server on the same data lists itself too; stopped,
			// it leaves.
			s2 := framework.Start(t, framework.SamePrefix(s), func(o *options.Options) {
				o.Generic.AdvertiseAddress = []byte{127, 0, 0, 2}
			})
			u2, _ := url.Parse(s2.SecureURL)
			waitFor(t, "both servers in the platform endpoints", func() bool {
				r := s.Do(t, "GET", ep, nil)
				return r.Code == http.StatusOK && len(endpointAddresses(r.Map(t))) == 2
			})
			s2.Stop()
			if got := endpointAddresses(s.Do(t, "GET", ep, nil).Expect(t, http.StatusOK).Map(t)); len(got) != 1 || got[0] != "127.0.0.1:"+u.Port() {
				t.Errorf("after the second server (port %s) stopped, endpoints %v, want only 127.0.0.1:%s", u2.Port(), got, u.Port())
			}
		})
	}
}

func endpointAddresses(ep map[string]any) []string {
	var out []string
	subsets, _ := ep["subsets"].([]any)
	for _, s := range subsets {
		sm := s.(map[string]any)
		port := sm["ports"].([]any)[0].(map[string]any)["port"].(float64)
		for _, a := range sm["addresses"].([]any) {
			out = append(out, a.(map[string]any)["ip"].(string)+":"+strconv.Itoa(int(port)))
		}
	}
	return out
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	framework.Eventually(t, 10*time.Second, what, ok)
}

func equalJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}
