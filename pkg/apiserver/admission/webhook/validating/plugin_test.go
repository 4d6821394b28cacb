package validating_test

import (
	"context"

	"errors"
	"fmt"
	"net/http"
	batchv1 "platform.io/client/api/batch/v1"
	"sort"
	"strings"
	"testing"

	arv1 "platform.io/client/api/admissionregistration/v1"
	arv1beta1 "platform.io/client/api/admissionregistration/v1beta1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/admission/webhook/client"
	"platform.io/platform/pkg/apiserver/admission/webhook/validating"
	"platform.io/platform/pkg/apiserver/admission/webhook/webhooktest"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/component/authn"
)

func ptr[T any](v T) *T { return &v }

var (
	configsV1      = meta.GroupVersionResource{Group: arv1.GroupName, Version: "v1", Resource: "validatingwebhookconfigurations"}
	configsV1beta1 = meta.GroupVersionResource{Group: arv1.GroupName, Version: "v1beta1", Resource: "validatingwebhookconfigurations"}
	namespaces     = meta.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	services       = meta.GroupVersionResource{Version: "v1", Resource: "services"}
	endpoints      = meta.GroupVersionResource{Version: "v1", Resource: "endpoints"}
)

// hook is a webhook on pod creates calling srv.
func hook(name string, srv *webhooktest.Server, mut ...func(*arv1.ValidatingWebhook)) arv1.ValidatingWebhook {
	w := arv1.ValidatingWebhook{
		Name:         name,
		ClientConfig: arv1.WebhookClientConfig{URL: ptr(srv.URL + "/validate"), CABundle: srv.CABundle},
		Rules: []arv1.RuleWithOperations{{Operations: []arv1.OperationType{arv1.Create},
			Rule: arv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}}}},
		SideEffects:             ptr(arv1.SideEffectClassNone),
		TimeoutSeconds:          ptr[int32](1),
		AdmissionReviewVersions: []string{"v1"},
	}
	for _, m := range mut {
		m(&w)
	}
	return w
}

func config(name string, hooks ...arv1.ValidatingWebhook) *arv1.ValidatingWebhookConfiguration {
	return &arv1.ValidatingWebhookConfiguration{ObjectMeta: meta.ObjectMeta{Name: name}, Webhooks: hooks}
}

func podCreate(ns string, labels map[string]string) *admission.Attributes {
	pod := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", Namespace: ns, Labels: labels},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}
	return &admission.Attributes{Operation: admission.Create, Kind: meta.GroupVersionKind{Version: "v1", Kind: "Pod"},
		Resource: meta.GroupVersionResource{Version: "v1", Resource: "pods"}, Namespace: ns, Name: "p", Object: pod,
		Options: &meta.CreateOptions{}, User: &authn.User{Name: "alice", Groups: []string{"devs"}}}
}

func newPlugin(t *testing.T, env *webhooktest.Env) *validating.Plugin {
	t.Helper()
	p, err := validating.NewFromConfig(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func code(err error) int {
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		return int(se.ErrStatus.Code)
	}
	return 0
}

// TestFailures runs each kind of answer under both failure policies.
func TestFailures(t *testing.T) {
	for _, tc := range []struct {
		name      string
		handler   webhooktest.Handler
		url       func(t *testing.T, srv *webhooktest.Server) string
		policy    arv1.FailurePolicyType
		wantCode  int    // 0: admitted
		wantError string // part of the message
	}{
		{"allow", webhooktest.Allow, nil, arv1.Fail, 0, ""},
		{"deny without code", webhooktest.Deny("no pods today", 0), nil, arv1.Ignore, http.StatusBadRequest,
			`admission webhook "check.example.com" denied the request: no pods today`},
		{"deny with code", webhooktest.Deny("quota of pods", http.StatusForbidden), nil, arv1.Fail, http.StatusForbidden,
			`denied the request: quota of pods`},
		{"timeout fail", webhooktest.Hang, nil, arv1.Fail, http.StatusInternalServerError, `failed calling webhook "check.example.com"`},
		{"timeout ignore", webhooktest.Hang, nil, arv1.Ignore, 0, ""},
		{"garbage fail", webhooktest.Garbage, nil, arv1.Fail, http.StatusInternalServerError, "received invalid webhook response"},
		{"garbage ignore", webhooktest.Garbage, nil, arv1.Ignore, 0, ""},
		{"unreachable fail", webhooktest.Allow, func(t *testing.T, _ *webhooktest.Server) string { return webhooktest.UnreachableURL(t) },
			arv1.Fail, http.StatusInternalServerError, "failed to call webhook"},
		{"unreachable ignore", webhooktest.Allow, func(t *testing.T, _ *webhooktest.Server) string { return webhooktest.UnreachableURL(t) },
			arv1.Ignore, 0, ""},
		{"wrong CA fail", webhooktest.Allow, nil, "wrong-ca", http.StatusInternalServerError, "certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := webhooktest.NewEnv(t)
			srv := webhooktest.Start(t, tc.handler)
			w := hook("check.example.com", srv, func(w *arv1.ValidatingWebhook) { w.FailurePolicy = ptr(tc.policy) })
			if tc.url != nil {
				w.ClientConfig.URL = ptr(tc.url(t, srv))
			}
			if tc.policy == "wrong-ca" {
				w.FailurePolicy = ptr(arv1.Fail)
				w.ClientConfig.CABundle = webhooktest.Start(t, webhooktest.Allow).CABundle
			}
			env.Create(t, configsV1, config("check", w))
			err := newPlugin(t, env).Validate(context.Background(), podCreate("default", nil))
			if got := code(err); got != tc.wantCode || (err == nil) != (tc.wantCode == 0) {
				t.Fatalf("Validate = %v (code %d), want code %d", err, got, tc.wantCode)
			}
			if err != nil && !strings.Contains(err.Error(), tc.wantError) {
				t.Errorf("error %q does not contain %q", err, tc.wantError)
			}
		})
	}
}

func TestRequestContent(t *testing.T) {
	env := webhooktest.NewEnv(t)
	srv := webhooktest.Start(t, webhooktest.Allow)
	env.Create(t, configsV1, config("check", hook("check.example.com", srv)))
	a := podCreate("default", map[string]string{"app": "web"})
	if err := newPlugin(t, env).Validate(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Kind.Kind != "Pod" || r.Resource.Resource != "pods" || r.RequestResource.Resource != "pods" || r.Operation != "CREATE" ||
		r.Namespace != "default" || r.Name != "p" || r.UserInfo.Username != "alice" || r.DryRun == nil || *r.DryRun || r.UID == "" {
		t.Errorf("request = %+v", r)
	}
	if !strings.Contains(string(r.Object), `"kind":"Pod"`) || !strings.Contains(string(r.Object), `"app":"web"`) || r.OldObject != nil {
		t.Errorf("object = %s, old = %s", r.Object, r.OldObject)
	}
	if !strings.Contains(string(r.Options), `"kind":"CreateOptions"`) {
		t.Errorf("options = %s", r.Options)
	}
	if v := srv.Versions(); v[0] != "admission.platform.io/v1" {
		t.Errorf("review version %v", v)
	}
}

func TestReviewVersion(t *testing.T) {
	env := webhooktest.NewEnv(t)
	srv := webhooktest.Start(t, webhooktest.Allow)
	env.Create(t, configsV1, config("check", hook("check.example.com", srv, func(w *arv1.ValidatingWebhook) {
		w.AdmissionReviewVersions = []string{"v2", "v1beta1", "v1"}
	})))
	if err := newPlugin(t, env).Validate(context.Background(), podCreate("default", nil)); err != nil {
		t.Fatal(err)
	}
	if v := srv.Versions(); len(v) != 1 || v[0] != "admission.platform.io/v1beta1" {
		t.Errorf("review versions %v, want the first known one", v)
	}
}

// TestDryRun: a dry run reaches webhooks without side effects with
// dryRun=true, and fails with 400 without calling one that has them.
func TestDryRun(t *testing.T) {
	for _, tc := range []struct {
		effects arv1.SideEffectClass
		version meta.GroupVersionResource
		called  bool
	}{
		{arv1.SideEffectClassNone, configsV1, true},
		{arv1.SideEffectClassNoneOnDryRun, configsV1, true},
		{arv1.SideEffectClassSome, configsV1beta1, false},
		{arv1.SideEffectClassUnknown, configsV1beta1, false},
	} {
		t.Run(string(tc.effects), func(t *testing.T) {
			t.Parallel()
			env := webhooktest.NewEnv(t)
			srv := webhooktest.Start(t, webhooktest.Allow)
			c := config("check", hook("check.example.com", srv, func(w *arv1.ValidatingWebhook) {
				w.SideEffects = ptr(tc.effects)
			}))
			if tc.version == configsV1beta1 {
				env.Create(t, tc.version, &arv1beta1.ValidatingWebhookConfiguration{ObjectMeta: c.ObjectMeta, Webhooks: c.Webhooks})
			} else {
				env.Create(t, tc.version, c)
			}
			a := podCreate("default", nil)
			a.DryRun = true
			err := newPlugin(t, env).Validate(context.Background(), a)
			reqs := srv.Requests()
			if tc.called {
				if err != nil || len(reqs) != 1 || reqs[0].DryRun == nil || !*reqs[0].DryRun {
					t.Errorf("Validate = %v, requests %+v; want one with dryRun", err, reqs)
				}
				return
			}
			if code(err) != http.StatusBadRequest || !strings.Contains(err.Error(), "does not support dry run") || len(reqs) != 0 {
				t.Errorf("Validate = %v, %d requests; want 400 and no call", err, len(reqs))
			}
			// The same webhook is called for a real request.
			if err := newPlugin(t, env).Validate(context.Background(), podCreate("default", nil)); err != nil || len(srv.Requests()) != 1 {
				t.Errorf("real request: %v, %d calls", err, len(srv.Requests()))
			}
		})
	}
}

func TestWarningsAndMetrics(t *testing.T) {
	env := webhooktest.NewEnv(t)
	warn := webhooktest.Start(t, webhooktest.Warn("image busybox is unpinned"))
	deny := webhooktest.Start(t, webhooktest.Deny("no", http.StatusConflict))
	env.Create(t, configsV1, config("a", hook("warn.example.com", warn)))
	env.Create(t, configsV1, config("b", hook("deny.example.com", deny)))
	var warnings []string
	ctx := registry.WithWarnings(context.Background(), func(m string) { warnings = append(warnings, m) })
	err := newPlugin(t, env).Validate(ctx, podCreate("default", nil))
	if code(err) != http.StatusConflict {
		t.Fatalf("Validate = %v, want the denial's 409", err)
	}
	if len(warnings) != 1 || warnings[0] != "image busybox is unpinned" {
		t.Errorf("warnings %q", warnings)
	}
	rejections := series(t, env, "apiserver_admission_webhook_rejection_count")
	if len(rejections) != 1 || rejections[0] != "error_type=no_error,name=deny.example.com,operation=CREATE,rejection_code=409,type=validating" {
		t.Errorf("rejection_count series %q", rejections)
	}
	requests := series(t, env, "apiserver_admission_webhook_request_total")
	want := []string{"code=200,name=deny.example.com,operation=CREATE,rejected=true,type=validating",
		"code=200,name=warn.example.com,operation=CREATE,rejected=false,type=validating"}
	if strings.Join(requests, " ") != strings.Join(want, " ") {
		t.Errorf("request_total series %q, want %q", requests, want)
	}
	if n := len(series(t, env, "apiserver_admission_webhook_admission_duration_seconds")); n != 2 {
		t.Errorf("%d duration series, want 2", n)
	}
}

// series returns the label sets of a metric's series, sorted.
func series(t *testing.T, env *webhooktest.Env, name string) []string {
	t.Helper()
	mfs, err := env.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			var ls []string
			for _, l := range m.GetLabel() {
				ls = append(ls, l.GetName()+"="+l.GetValue())
			}
			out = append(out, strings.Join(ls, ","))
		}
	}
	sort.Strings(out)
	return out
}

// TestSelectors: namespaceSelector reads the namespace's labels (a
// Namespace's own), objectSelector the object's or the old object's.
func TestSelectors(t *testing.T) {
	env := webhooktest.NewEnv(t)
	srv := webhooktest.Start(t, webhooktest.Allow)
	env.Create(t, namespaces, &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: "watched", Labels: map[string]string{"hooks": "on"}}})
	env.Create(t, namespaces, &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: "quiet"}})
	env.Create(t, configsV1, config("check",
		hook("ns.example.com", srv, func(w *arv1.ValidatingWebhook) {
			w.NamespaceSelector = &meta.LabelSelector{MatchLabels: map[string]string{"hooks": "on"}}
			w.Rules[0].Resources = []string{"pods", "namespaces", "nodes"}
			w.Rules[0].Operations = []arv1.OperationType{arv1.OperationAll}
		}),
		hook("obj.example.com", srv, func(w *arv1.ValidatingWebhook) {
			w.ObjectSelector = &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{{Key: "app", Operator: meta.LabelSelectorOpIn, Values: []string{"web"}}}}
			w.Rules[0].Operations = []arv1.OperationType{arv1.OperationAll}
		})))
	p := newPlugin(t, env)
	nsCreate := func(labels map[string]string) *admission.Attributes {
		return &admission.Attributes{Operation: admission.Create, Kind: meta.GroupVersionKind{Version: "v1", Kind: "Namespace"},
			Resource: namespaces, Name: "n", Object: &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: "n", Labels: labels}}}
	}
	update := podCreate("quiet", nil)
	update.Operation, update.OldObject = admission.Update, &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", Labels: map[string]string{"app": "web"}}}
	node := &admission.Attributes{Operation: admission.Create, Kind: meta.GroupVersionKind{Version: "v1", Kind: "Node"},
		Resource: meta.GroupVersionResource{Version: "v1", Resource: "nodes"}, Name: "n1", Object: &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "n1"}}}
	for _, tc := range []struct {
		name string
		a    *admission.Attributes
		want []string
	}{
		{"labelled namespace", podCreate("watched", nil), []string{"ns.example.com"}},
		{"other namespace", podCreate("quiet", nil), nil},
		{"labelled object", podCreate("quiet", map[string]string{"app": "web"}), []string{"obj.example.com"}},
		{"both", podCreate("watched", map[string]string{"app": "web"}), []string{"ns.example.com", "obj.example.com"}},
		{"old object labelled", update, []string{"obj.example.com"}},
		{"namespace by its own labels", nsCreate(map[string]string{"hooks": "on"}), []string{"ns.example.com"}},
		{"namespace without the labels", nsCreate(nil), nil},
		{"cluster-scoped object", node, []string{"ns.example.com"}},
	} {
		before := len(srv.Requests())
		if err := p.Validate(context.Background(), tc.a); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for _, r := range srv.Requests()[before:] {
			got = append(got, r.Name+"@"+r.Namespace)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d calls %v, want %v", tc.name, len(got), got, tc.want)
		}
	}
}

// loopback reaches an endpoint address 10.b.c.d at 127.b.c.d (Endpoints
// may not hold loopback addresses).
type loopback struct{ client.Resolver }

func (l loopback) Resolve(ctx context.Context, ns, name string, port int32) (string, error) {
	addr, err := l.Resolver.Resolve(ctx, ns, name, port)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(addr, "10.") {
		return "", fmt.Errorf("resolved to %s, want the endpoint's 10.0.0.1", addr)
	}
	return "127." + strings.TrimPrefix(addr, "10."), nil
}

// TestConfigurationsExempt: a webhook on every resource is not called for
// writes of webhook configurations, under either group name.
func TestConfigurationsExempt(t *testing.T) {
	env := webhooktest.NewEnv(t)
	srv := webhooktest.Start(t, webhooktest.Deny("everything", http.StatusForbidden))
	env.Create(t, configsV1, config("all", hook("all.example.com", srv, func(w *arv1.ValidatingWebhook) {
		w.Rules[0].Rule = arv1.Rule{APIGroups: []string{"*"}, APIVersions: []string{"*"}, Resources: []string{"*"}}
	})))
	p := newPlugin(t, env)
	for _, group := range []string{arv1.GroupName, "admissionregistration.k8s.io"} {
		a := &admission.Attributes{Operation: admission.Create, Kind: meta.GroupVersionKind{Group: group, Version: "v1", Kind: "ValidatingWebhookConfiguration"},
			Resource: meta.GroupVersionResource{Group: group, Version: "v1", Resource: "validatingwebhookconfigurations"}, Name: "x",
			Object: config("x")}
		if err := p.Validate(context.Background(), a); err != nil {
			t.Errorf("%s: %v", group, err)
		}
	}
	if err := p.Validate(context.Background(), podCreate("default", nil)); code(err) != http.StatusForbidden {
		t.Errorf("pod create: %v, want the webhook's refusal", err)
	}
}

// TestServiceReference: a webhook named by a Service is reached at the
// address of the Service's Endpoints (the endpoint port of the Service
// port's name), its certificate checked for <name>.<namespace>.svc.
func TestServiceReference(t *testing.T) {
	env := webhooktest.NewEnv(t)
	env.Config.Resolver = func(r client.Resolver) client.Resolver { return loopback{r} }
	srv := webhooktest.Start(t, webhooktest.Deny("from the service", http.StatusForbidden), "checker.hooks.svc")
	env.Create(t, namespaces, &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: "hooks"}})
	env.Create(t, services, &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: "checker", Namespace: "hooks"},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "metrics", Port: 80, Protocol: corev1.ProtocolTCP},
			{Name: "https", Port: 443, Protocol: corev1.ProtocolTCP}}}})
	env.Create(t, endpoints, &corev1.Endpoints{ObjectMeta: meta.ObjectMeta{Name: "checker", Namespace: "hooks"},
		Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1"}},
			Ports: []corev1.EndpointPort{{Name: "metrics", Port: 1, Protocol: corev1.ProtocolTCP},
				{Name: "https", Port: srv.Port, Protocol: corev1.ProtocolTCP}}}}})
	w := hook("svc.example.com", srv)
	w.ClientConfig = arv1.WebhookClientConfig{Service: &arv1.ServiceReference{Namespace: "hooks", Name: "checker", Path: ptr("/check")}, CABundle: srv.CABundle}
	env.Create(t, configsV1, config("svc", w))
	err := newPlugin(t, env).Validate(context.Background(), podCreate("default", nil))
	if code(err) != http.StatusForbidden || !strings.Contains(err.Error(), "from the service") {
		t.Errorf("Validate = %v, want the service's denial", err)
	}
}

// TestEquivalent: a rule on batch/v1beta1 cronjobs sees a batch/v1 write
// (converted to v1beta1) under matchPolicy Equivalent, not under Exact.
func TestEquivalent(t *testing.T) {
	for _, policy := range []arv1.MatchPolicyType{arv1.Equivalent, arv1.Exact} {
		t.Run(string(policy), func(t *testing.T) {
			env := webhooktest.NewEnv(t)
			srv := webhooktest.Start(t, webhooktest.Allow)
			env.Create(t, configsV1, config("check", hook("cron.example.com", srv, func(w *arv1.ValidatingWebhook) {
				w.MatchPolicy = ptr(policy)
				w.Rules[0].Rule = arv1.Rule{APIGroups: []string{"batch"}, APIVersions: []string{"v1beta1"}, Resources: []string{"cronjobs"}}
			})))
			a := &admission.Attributes{Operation: admission.Create, Kind: meta.GroupVersionKind{Group: "batch", Version: "v1", Kind: "CronJob"},
				Resource: meta.GroupVersionResource{Group: "batch", Version: "v1", Resource: "cronjobs"}, Namespace: "default", Name: "c",
				Object: cronJob()}
			if err := newPlugin(t, env).Validate(context.Background(), a); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if policy == arv1.Exact {
				if len(reqs) != 0 {
					t.Errorf("Exact: called for batch/v1")
				}
				return
			}
			if len(reqs) != 1 {
				t.Fatalf("Equivalent: %d calls", len(reqs))
			}
			r := reqs[0]
			if r.Resource.Version != "v1beta1" || r.Kind.Version != "v1beta1" || r.RequestKind.Version != "v1" ||
				!strings.Contains(string(r.Object), `"apiVersion":"batch/v1beta1"`) || !strings.Contains(string(r.Object), `"schedule":"@hourly"`) {
				t.Errorf("request kind %+v resource %+v requestKind %+v object %s", r.Kind, r.Resource, r.RequestKind, r.Object)
			}
		})
	}
}

func cronJob() *batchv1.CronJob {
	return &batchv1.CronJob{ObjectMeta: meta.ObjectMeta{Name: "c", Namespace: "default"}, Spec: batchv1.CronJobSpec{Schedule: "@hourly"}}
}
