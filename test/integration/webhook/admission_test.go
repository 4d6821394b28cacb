package webhook

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/admission/webhook/webhooktest"
	"platform.io/platform/test/integration/framework"
)

// env is an API server for webhooks. Every configuration a test registers
// also holds a sentinel webhook on configmaps, with a server of its own,
// so the test knows the API server sees the configuration once a
// configmap write reaches that sentinel.
type env struct {
	s *framework.Server
}

func newEnv(t *testing.T) *env {
	return &env{s: framework.Start(t)}
}

// register creates a configuration (kind Validating or Mutating, version
// v1 or v1beta1) of hooks plus its sentinel, and waits until the server
// calls the sentinel.
func (e *env) register(t *testing.T, kind, version, name string, hooks ...map[string]any) {
	t.Helper()
	sentinelServer := webhooktest.Start(t, webhooktest.Allow)
	sentinel := podHook("sentinel-"+name+".example.com", sentinelServer.URL, sentinelServer.CABundle, map[string]any{
		"rules": []any{map[string]any{"operations": []string{"CREATE"}, "apiGroups": []string{""},
			"apiVersions": []string{"v1"}, "resources": []string{"configmaps"}}},
		"failurePolicy": "Ignore"})
	if version == "v1beta1" {
		sentinel["sideEffects"] = "None"
	}
	webhooks := append([]any{}, sentinel)
	for _, h := range hooks {
		webhooks = append(webhooks, h)
	}
	path := "/apis/admissionregistration.platform.io/" + version + "/" + strings.ToLower(kind) + "webhookconfigurations"
	e.s.Do(t, "POST", path, map[string]any{"apiVersion": "admissionregistration.platform.io/" + version,
		"kind": kind + "WebhookConfiguration", "metadata": map[string]any{"name": name}, "webhooks": webhooks}).Expect(t, http.StatusCreated)
	cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "probe"}}
	framework.Eventually(t, 5*time.Second, "the server calls the sentinel of "+name, func() bool {
		e.s.Do(t, "POST", "/api/v1/namespaces/default/configmaps?dryRun=All", cm).Expect(t, http.StatusCreated)
		return len(sentinelServer.Requests()) > 0
	})
}

func pod(name string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": name, "namespace": "default"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "busybox"}}}}
}

const pods = "/api/v1/namespaces/default/pods"

// TestAnswers: each kind of webhook answer under both failure policies,
// seen by a client creating a pod.
func TestAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		name    string
		handler webhooktest.Handler
		policy  string
		down    bool // the webhook's URL has no listener
		code    int
		message string
	}{
		{"allow", webhooktest.Allow, "Fail", false, http.StatusCreated, ""},
		{"deny", webhooktest.Deny("pods must name an owner", http.StatusForbidden), "Ignore", false, http.StatusForbidden,
			`admission webhook "deny.example.com" denied the request: pods must name an owner`},
		{"deny code", webhooktest.Deny("quota", http.StatusTooManyRequests), "Fail", false, http.StatusTooManyRequests, "denied the request: quota"},
		{"timeout fail", webhooktest.Hang, "Fail", false, http.StatusInternalServerError, `failed calling webhook "timeout-fail.example.com"`},
		{"timeout ignore", webhooktest.Hang, "Ignore", false, http.StatusCreated, ""},
		{"garbage fail", webhooktest.Garbage, "Fail", false, http.StatusInternalServerError, "received invalid webhook response"},
		{"garbage ignore", webhooktest.Garbage, "Ignore", false, http.StatusCreated, ""},
		{"unreachable fail", webhooktest.Allow, "Fail", true, http.StatusInternalServerError, "failed to call webhook"},
		{"unreachable ignore", webhooktest.Allow, "Ignore", true, http.StatusCreated, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := strings.ReplaceAll(tc.name, " ", "-")
			srv := webhooktest.Start(t, tc.handler)
			url := srv.URL
			if tc.down {
				url = webhooktest.UnreachableURL(t)
			}
			hook := podHook(name+".example.com", url, srv.CABundle, map[string]any{"failurePolicy": tc.policy, "timeoutSeconds": 1,
				"objectSelector": map[string]any{"matchLabels": map[string]string{"case": name}}})
			e.register(t, "Validating", "v1", name, hook)
			p := pod(name)
			p["metadata"].(map[string]any)["labels"] = map[string]string{"case": name}
			r := e.s.Do(t, "POST", pods, p)
			if r.Code != tc.code {
				t.Fatalf("create: HTTP %d, want %d: %s", r.Code, tc.code, r.Body)
			}
			if tc.code == http.StatusCreated {
				return
			}
			st := r.Map(t)
			if st["kind"] != "Status" || st["code"] != float64(tc.code) || !strings.Contains(st["message"].(string), tc.message) {
				t.Errorf("status %s, want code %d and message with %q", r.Body, tc.code, tc.message)
			}
			e.s.Do(t, "GET", pods+"/"+name, nil).Expect(t, http.StatusNotFound)
		})
	}
}

// TestMutate: a JSON patch lands in the stored object.
func TestMutate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := webhooktest.Start(t, webhooktest.Patch(`[{"op":"add","path":"/metadata/labels/injected","value":"yes"},`+
		`{"op":"replace","path":"/spec/containers/0/image","value":"busybox:1.36"}]`))
	e.register(t, "Mutating", "v1", "inject", podHook("inject.example.com", srv.URL, srv.CABundle, nil))
	p := pod("mutated")
	p["metadata"].(map[string]any)["labels"] = map[string]string{"app": "web"}
	e.s.Do(t, "POST", pods, p).Expect(t, http.StatusCreated)
	got := e.s.Do(t, "GET", pods+"/mutated", nil).Expect(t, http.StatusOK).Map(t)
	labels := got["metadata"].(map[string]any)["labels"].(map[string]any)
	image := got["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["image"]
	if labels["injected"] != "yes" || labels["app"] != "web" || image != "busybox:1.36" {
		t.Errorf("stored pod labels %v image %v", labels, image)
	}
}

// TestReinvocation: an IfNeeded webhook sees the change a later webhook made.
func TestReinvocation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	watcher := webhooktest.Start(t, webhooktest.Allow)
	changer := webhooktest.Start(t, webhooktest.Patch(`[{"op":"add","path":"/metadata/annotations","value":{"changed":"yes"}}]`))
	e.register(t, "Mutating", "v1", "a-watch", podHook("watch.example.com", watcher.URL, watcher.CABundle, map[string]any{"reinvocationPolicy": "IfNeeded"}))
	e.register(t, "Mutating", "v1", "b-change", podHook("change.example.com", changer.URL, changer.CABundle, nil))
	e.s.Do(t, "POST", pods, pod("reinvoked")).Expect(t, http.StatusCreated)
	reqs := watcher.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Object), `"changed":"yes"`) {
		t.Errorf("watcher saw %d requests; want 2, the second with the change", len(reqs))
	}
}

// TestDryRun: per side-effect class, a dry run calls the webhook with
// dryRun=true or fails with 400 without calling it; nothing is stored.
func TestDryRun(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		effects, version string
		code             int
	}{
		{"None", "v1", http.StatusCreated},
		{"NoneOnDryRun", "v1", http.StatusCreated},
		{"Some", "v1beta1", http.StatusBadRequest},
		{"Unknown", "v1beta1", http.StatusBadRequest},
	} {
		t.Run(tc.effects, func(t *testing.T) {
			name := strings.ToLower(tc.effects)
			srv := webhooktest.Start(t, webhooktest.Allow)
			hook := podHook(name+".example.com", srv.URL, srv.CABundle, map[string]any{"sideEffects": tc.effects,
				"admissionReviewVersions": []string{"v1"},
				"objectSelector":          map[string]any{"matchLabels": map[string]string{"case": name}}})
			e.register(t, "Validating", tc.version, "dry-"+name, hook)
			p := pod("dry-" + name)
			p["metadata"].(map[string]any)["labels"] = map[string]string{"case": name}
			r := e.s.Do(t, "POST", pods+"?dryRun=All", p)
			if r.Code != tc.code {
				t.Fatalf("dry run: HTTP %d, want %d: %s", r.Code, tc.code, r.Body)
			}
			reqs := srv.Requests()
			if tc.code == http.StatusCreated {
				if len(reqs) != 1 || reqs[0].DryRun == nil || !*reqs[0].DryRun {
					t.Errorf("webhook requests %+v, want one with dryRun", reqs)
				}
			} else {
				if len(reqs) != 0 || !strings.Contains(string(r.Body), `admission webhook \"`+name+`.example.com\" does not support dry run`) {
					t.Errorf("webhook called %d times; body %s", len(reqs), r.Body)
				}
			}
			e.s.Do(t, "GET", pods+"/dry-"+name, nil).Expect(t, http.StatusNotFound)
		})
	}
}

// TestWarnings: a webhook's warnings reach the client as Warning headers.
func TestWarnings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := webhooktest.Start(t, webhooktest.Warn("image busybox has no tag", "second warning"))
	e.register(t, "Validating", "v1", "warn", podHook("warn.example.com", srv.URL, srv.CABundle, nil))
	r := e.s.Do(t, "POST", pods, pod("warned")).Expect(t, http.StatusCreated)
	got := r.Header.Values("Warning")
	if len(got) != 2 || got[0] != `299 - "image busybox has no tag"` || got[1] != `299 - "second warning"` {
		t.Errorf("Warning headers %q", got)
	}
}

// TestChangesSeen: a configuration's update and deletion take effect
// within seconds.
func TestChangesSeen(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := webhooktest.Start(t, webhooktest.Deny("closed", http.StatusForbidden))
	e.register(t, "Validating", "v1", "gate", podHook("gate.example.com", srv.URL, srv.CABundle, nil))
	e.s.Do(t, "POST", pods, pod("first")).Expect(t, http.StatusForbidden)
	e.s.Do(t, "DELETE", "/apis/admissionregistration.platform.io/v1/validatingwebhookconfigurations/gate", nil).Expect(t, http.StatusOK)
	framework.Eventually(t, 5*time.Second, "the deleted webhook stops refusing", func() bool {
		return e.s.Do(t, "POST", pods+"?dryRun=All", pod("second")).Code == http.StatusCreated
	})
}
