package mutating_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	arv1 "platform.io/client/api/admissionregistration/v1"
	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/admission/webhook/mutating"
	"platform.io/platform/pkg/apiserver/admission/webhook/webhooktest"
)

func ptr[T any](v T) *T { return &v }

var configs = meta.GroupVersionResource{Group: arv1.GroupName, Version: "v1", Resource: "mutatingwebhookconfigurations"}

func hook(name string, srv *webhooktest.Server, mut ...func(*arv1.MutatingWebhook)) arv1.MutatingWebhook {
	w := arv1.MutatingWebhook{
		Name:         name,
		ClientConfig: arv1.WebhookClientConfig{URL: ptr(srv.URL + "/mutate"), CABundle: srv.CABundle},
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

func config(name string, hooks ...arv1.MutatingWebhook) *arv1.MutatingWebhookConfiguration {
	return &arv1.MutatingWebhookConfiguration{ObjectMeta: meta.ObjectMeta{Name: name}, Webhooks: hooks}
}

func podCreate() *admission.Attributes {
	pod := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", Namespace: "default"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}
	return &admission.Attributes{Operation: admission.Create, Kind: meta.GroupVersionKind{Version: "v1", Kind: "Pod"},
		Resource: meta.GroupVersionResource{Version: "v1", Resource: "pods"}, Namespace: "default", Name: "p", Object: pod}
}

func chain(t *testing.T, env *webhooktest.Env) *admission.Chain {
	t.Helper()
	p, err := mutating.NewFromConfig(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	return admission.NewChain([]admission.Named{{Name: mutating.PluginName, Plugin: p}}, nil)
}

// TestPatchesInOrder: each webhook's patch is applied before the next
// webhook is called, configurations in name order.
func TestPatchesInOrder(t *testing.T) {
	env := webhooktest.NewEnv(t)
	first := webhooktest.Start(t, webhooktest.Patch(`[{"op":"add","path":"/metadata/labels","value":{"injected":"first"}}]`))
	second := webhooktest.Start(t, webhooktest.Patch(`[{"op":"replace","path":"/spec/containers/0/image","value":"busybox:1.36"}]`))
	env.Create(t, configs, config("b-second", hook("second.example.com", second)))
	env.Create(t, configs, config("a-first", hook("first.example.com", first)))
	a := podCreate()
	if err := chain(t, env).Admit(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	pod := a.Object.(*corev1.Pod)
	if pod.Labels["injected"] != "first" || pod.Spec.Containers[0].Image != "busybox:1.36" {
		t.Errorf("pod = %+v", pod)
	}
	if r := second.Requests(); len(r) != 1 || !strings.Contains(string(r[0].Object), `"injected":"first"`) {
		t.Errorf("second webhook did not see the first one's patch: %v", r)
	}
}

func TestBadPatch(t *testing.T) {
	env := webhooktest.NewEnv(t)
	srv := webhooktest.Start(t, webhooktest.Patch(`[{"op":"remove","path":"/spec/nothing"}]`))
	env.Create(t, configs, config("a", hook("bad.example.com", srv)))
	err := chain(t, env).Admit(context.Background(), podCreate())
	if apierrors.ReasonForError(err) != meta.StatusReasonInternalError {
		t.Errorf("Admit = %v, want an internal error", err)
	}
}

func TestDenial(t *testing.T) {
	env := webhooktest.NewEnv(t)
	srv := webhooktest.Start(t, webhooktest.Deny("pods need an owner label", http.StatusUnprocessableEntity))
	env.Create(t, configs, config("a", hook("owner.example.com", srv)))
	err := chain(t, env).Admit(context.Background(), podCreate())
	var se *apierrors.StatusError
	if !asStatus(err, &se) || se.ErrStatus.Code != http.StatusUnprocessableEntity ||
		se.ErrStatus.Message != `admission webhook "owner.example.com" denied the request: pods need an owner label` {
		t.Errorf("Admit = %#v", err)
	}
}

// TestReinvocation: an IfNeeded webhook is called again when a later
// webhook changed the object; a Never one is not.
func TestReinvocation(t *testing.T) {
	for _, tc := range []struct {
		policy arv1.ReinvocationPolicyType
		calls  int
	}{{arv1.IfNeededReinvocationPolicy, 2}, {arv1.NeverReinvocationPolicy, 1}} {
		t.Run(string(tc.policy), func(t *testing.T) {
			env := webhooktest.NewEnv(t)
			watcher := webhooktest.Start(t, webhooktest.Allow)
			changer := webhooktest.Start(t, webhooktest.Patch(`[{"op":"add","path":"/metadata/annotations","value":{"changed":"yes"}}]`))
			env.Create(t, configs, config("a", hook("watcher.example.com", watcher, func(w *arv1.MutatingWebhook) {
				w.ReinvocationPolicy = ptr(tc.policy)
			})))
			env.Create(t, configs, config("b", hook("changer.example.com", changer)))
			a := podCreate()
			if err := chain(t, env).Admit(context.Background(), a); err != nil {
				t.Fatal(err)
			}
			if n := len(watcher.Requests()); n != tc.calls {
				t.Errorf("watcher called %d times, want %d", n, tc.calls)
			}
			if n := len(changer.Requests()); n != 1 {
				t.Errorf("changer called %d times, want 1 (Never)", n)
			}
			if r := watcher.Requests(); tc.calls == 2 && len(r) == 2 && !strings.Contains(string(r[1].Object), `"changed":"yes"`) {
				t.Errorf("reinvoked watcher did not see the change")
			}
		})
	}
}

// TestEquivalentPatch: a webhook on batch/v1beta1 cronjobs patches a
// batch/v1 write in v1beta1; the patch lands on the v1 object.
func TestEquivalentPatch(t *testing.T) {
	env := webhooktest.NewEnv(t)
	srv := webhooktest.Start(t, webhooktest.Patch(`[{"op":"add","path":"/spec/suspend","value":true}]`))
	env.Create(t, configs, config("a", hook("cron.example.com", srv, func(w *arv1.MutatingWebhook) {
		w.Rules[0].Rule = arv1.Rule{APIGroups: []string{"batch"}, APIVersions: []string{"v1beta1"}, Resources: []string{"cronjobs"}}
	})))
	cj := &batchv1.CronJob{TypeMeta: meta.TypeMeta{APIVersion: "batch/v1", Kind: "CronJob"},
		ObjectMeta: meta.ObjectMeta{Name: "c", Namespace: "default"}, Spec: batchv1.CronJobSpec{Schedule: "@hourly"}}
	a := &admission.Attributes{Operation: admission.Create, Kind: meta.GroupVersionKind{Group: "batch", Version: "v1", Kind: "CronJob"},
		Resource: meta.GroupVersionResource{Group: "batch", Version: "v1", Resource: "cronjobs"}, Namespace: "default", Name: "c", Object: cj}
	if err := chain(t, env).Admit(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	out, ok := a.Object.(*batchv1.CronJob)
	if !ok || out.Spec.Suspend == nil || !*out.Spec.Suspend || out.APIVersion != "batch/v1" || out.Spec.Schedule != "@hourly" {
		t.Errorf("object = %#v", a.Object)
	}
	if r := srv.Requests(); len(r) != 1 || r[0].Kind.Version != "v1beta1" {
		t.Errorf("requests %+v", r)
	}
}

func asStatus(err error, se **apierrors.StatusError) bool {
	s, ok := err.(*apierrors.StatusError)
	*se = s
	return ok
}
