package apps

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/client"

	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/controller"
	"platform.io/platform/test/integration/framework"
)

// env is one API server and the loops running against it.
type env struct {
	s   *framework.Server
	d   *daemon.Deps
	set *client.Set
	ctx context.Context
	ns  string
}

// start runs an API server and the loops of descs with their default
// options adjusted by tune (which may be nil), and waits until their
// informers have synced.
func start(t *testing.T, tune func(controller.Options), descs ...controller.Descriptor) *env {
	t.Helper()
	s := framework.Start(t)
	d := s.Deps(t, "controller-manager")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	var wg sync.WaitGroup
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	for _, desc := range descs {
		opts := desc.NewOptions()
		if tune != nil {
			tune(opts)
		}
		if errs := opts.Validate(); len(errs) > 0 {
			t.Fatalf("%s options: %v", desc.Name, errs)
		}
		r, err := desc.New(controller.Context{Deps: d}, opts)
		if err != nil {
			t.Fatalf("%s: %v", desc.Name, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.Run(ctx); err != nil {
				t.Errorf("%s: %v", desc.Name, err)
			}
		}()
	}
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		t.Fatal("informers did not sync")
	}
	return &env{s: s, d: d, set: client.NewSet(s.RESTClient(t)), ctx: ctx, ns: "default"}
}

// eventually polls cond every 50ms until it returns "" (satisfied) or the
// timeout passes; the last message is the failure.
func (e *env) eventually(t *testing.T, timeout time.Duration, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		msg := cond()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", timeout, msg)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// podTemplate returns a pod template labelled with l.
func podTemplate(l map[string]string, image string) corev1.PodTemplateSpec {
	tmpl := corev1.PodTemplateSpec{}
	tmpl.Labels = l
	tmpl.Spec.Containers = []corev1.Container{{Name: "app", Image: image}}
	return tmpl
}

func ptr[T any](v T) *T { return &v }

// pods lists the pods of the namespace matching sel, active or not.
func (e *env) pods(t *testing.T, sel string) []corev1.Pod {
	t.Helper()
	l, err := e.set.Pods.Namespace(e.ns).List(e.ctx, meta.ListOptions{LabelSelector: sel})
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

// activePods lists the pods matching sel that are not being deleted.
func (e *env) activePods(t *testing.T, sel string) []corev1.Pod {
	t.Helper()
	var out []corev1.Pod
	for _, p := range e.pods(t, sel) {
		if p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

// markReady makes pod Running and Ready since readySince, as a node agent
// would.
func (e *env) markReady(t *testing.T, pod *corev1.Pod, readySince time.Time) {
	t.Helper()
	p := *pod
	p.Status.Phase = corev1.PodRunning
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: meta.NewTime(readySince)}}
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "app", Ready: true, Image: pod.Spec.Containers[0].Image, ImageID: "docker://img", ContainerID: "docker://" + string(pod.UID)}}
	if _, err := e.set.Pods.Namespace(pod.Namespace).UpdateStatus(e.ctx, &p, meta.WriteOptions{}); err != nil && !strings.Contains(err.Error(), "not found") {
		t.Fatalf("mark %s ready: %v", pod.Name, err)
	}
}

// markAllReady marks every active, not yet ready pod matching sel ready,
// and returns how many it marked.
func (e *env) markAllReady(t *testing.T, sel string) int {
	t.Helper()
	n := 0
	for _, p := range e.activePods(t, sel) {
		if isReady(&p) {
			continue
		}
		e.markReady(t, &p, time.Now().Add(-time.Hour))
		n++
	}
	return n
}

func isReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// replicaSet returns a ReplicaSet of n pods selecting app=name.
func replicaSet(name string, n int32) *appsv1.ReplicaSet {
	l := map[string]string{"app": name}
	rs := &appsv1.ReplicaSet{}
	rs.Name = name
	rs.Spec.Replicas = &n
	rs.Spec.Selector = &meta.LabelSelector{MatchLabels: l}
	rs.Spec.Template = podTemplate(l, "nginx:1")
	return rs
}

// selectorString renders a match-labels selector.
func selectorString(l map[string]string) string {
	return labels.SelectorFromSet(labels.Set(l)).String()
}

// events returns the messages of the events about the object name with
// reason.
func (e *env) events(t *testing.T, name, reason string) []string {
	t.Helper()
	l, err := e.set.Events.Namespace(e.ns).List(e.ctx, meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range l.Items {
		if ev.InvolvedObject.Name == name && ev.Reason == reason {
			out = append(out, ev.Message)
		}
	}
	return out
}

func describe(pods []corev1.Pod) string {
	var b strings.Builder
	for _, p := range pods {
		fmt.Fprintf(&b, "%s(ready=%v) ", p.Name, isReady(&p))
	}
	return b.String()
}

// controlledBy reports whether m has a controller reference to uid with
// blockOwnerDeletion set.
func controlledBy(m *meta.ObjectMeta, uid meta.UID) bool {
	for _, r := range m.OwnerReferences {
		if r.Controller != nil && *r.Controller {
			return r.UID == uid && r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion
		}
	}
	return false
}

// retryConflict calls write until it does not fail with a conflict.
func retryConflict(t *testing.T, write func() error) {
	t.Helper()
	for i := 0; ; i++ {
		err := write()
		if err == nil {
			return
		}
		if !apierrors.IsConflict(err) || i == 20 {
			t.Fatal(err)
		}
	}
}
