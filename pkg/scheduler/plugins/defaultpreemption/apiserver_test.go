package defaultpreemption

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
	itfw "platform.io/platform/test/integration/framework"
)

// TestPostFilterAgainstAPIServer runs preemption end to end against a real
// API server: the victim is deleted with its grace period and told why by
// an event, a lower-priority nomination to the node is cleared, and the
// preemptor's status names the node; a pod that cannot preempt loses its
// stale nomination.
func TestPostFilterAgainstAPIServer(t *testing.T) {
	s := itfw.Start(t)
	d := s.Deps(t, "platform-scheduler")
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	const ns = "preempt"
	if _, err := d.Clients.Namespaces.Create(ctx, &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: ns}}, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	pods := d.Clients.Pods.Namespace(ns)
	create := func(w *st.PodWrapper, nominated string) *corev1.Pod {
		t.Helper()
		p := w.Namespace(ns).Obj()
		p.UID = ""
		p.Spec.Containers[0].Image = "busybox"
		p.Spec.Containers[0].Name = "c"
		if p.Spec.Priority != nil {
			// The Priority admission plugin takes a pod's priority from its class.
			p.Spec.PriorityClassName = fmt.Sprintf("p%d", *p.Spec.Priority)
			pc := map[string]any{"metadata": map[string]any{"name": p.Spec.PriorityClassName}, "value": *p.Spec.Priority}
			if r := s.Do(t, "POST", "/apis/scheduling.platform.io/v1/priorityclasses", pc); r.Code != http.StatusCreated && r.Code != http.StatusConflict {
				t.Fatalf("create priority class %s: %d %s", p.Spec.PriorityClassName, r.Code, r.Body)
			}
		}
		got, err := pods.Create(ctx, p, meta.WriteOptions{})
		if err != nil {
			t.Fatalf("create %s: %v", p.Name, err)
		}
		if nominated != "" {
			body := []byte(`{"status":{"nominatedNodeName":"` + nominated + `"}}`)
			if got, err = pods.Patch(ctx, got.Name, rest.MergePatchType, body, meta.WriteOptions{}, "status"); err != nil {
				t.Fatalf("nominate %s: %v", p.Name, err)
			}
		}
		return got
	}
	low := create(st.MakePod().Name("low").Priority(1).Req(cpu("2")).Node("n1"), "")
	mid := create(st.MakePod().Name("mid").Priority(50).Req(cpu("2")).Node("n2"), "")
	waiting := create(st.MakePod().Name("waiting").Priority(5).Req(cpu("1")), "n1")
	preemptor := create(st.MakePod().Name("preemptor").Priority(100).Req(cpu("2")), "")
	hopeless := create(st.MakePod().Name("hopeless").Priority(0).Req(cpu("2")), "n2")

	snap := st.NewSnapshot([]*corev1.Pod{low, mid}, []*corev1.Node{node("n1", "2"), node("n2", "2")})
	h := st.NewHandle(snap)
	h.ClientSet, h.Recorder = d.Clients, d.Recorder
	h.Filters = []framework.FilterPlugin{cpuFit{}}
	h.Nominator.AddNominatedPod(framework.NewPodInfo(waiting), "n1")
	pl, err := New(nil, h)
	if err != nil {
		t.Fatal(err)
	}
	post := pl.(framework.PostFilterPlugin)

	res, status := post.PostFilter(ctx, framework.NewCycleState(), preemptor, unschedulable("n1", "n2"))
	if !status.IsSuccess() || res == nil || res.NominatedNodeName != "n1" {
		t.Fatalf("PostFilter: %+v, %v; want n1", res, status.AsError())
	}
	if got, err := pods.Get(ctx, "low", meta.GetOptions{}); err == nil && (got.DeletionTimestamp == nil || !preemptedByScheduler(got)) {
		t.Errorf("victim low: deletionTimestamp %v, conditions %+v; want terminating and marked preempted", got.DeletionTimestamp, got.Status.Conditions)
	} else if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	if got, err := pods.Get(ctx, "mid", meta.GetOptions{}); err != nil || got.DeletionTimestamp != nil {
		t.Errorf("mid was touched: %v", err)
	}
	wantNominated := map[string]string{"preemptor": "n1", "waiting": ""}
	for name, want := range wantNominated {
		if got, err := pods.Get(ctx, name, meta.GetOptions{}); err != nil || got.Status.NominatedNodeName != want {
			t.Errorf("%s: nominatedNodeName %q (%v), want %q", name, got.Status.NominatedNodeName, err, want)
		}
	}
	if pis := h.Nominator.NominatedPodsForNode("n1"); len(pis) != 1 || pis[0].Pod.Name != "preemptor" {
		t.Errorf("nominated to n1: %d pods, want the preemptor only", len(pis))
	}
	waitForEvent(t, ctx, d.Clients, ns, "low", "Preempted", "Preempted by preempt/preemptor on node n1")

	res, status = post.PostFilter(ctx, framework.NewCycleState(), hopeless, unschedulable("n1", "n2"))
	wantMsg := "preemption: 0/2 nodes are available: 2 " + reasonNoVictims + "."
	if status.Code() != framework.Unschedulable || status.Message() != wantMsg || res == nil || res.NominatedNodeName != "" {
		t.Errorf("hopeless: %+v, %s %q; want Unschedulable %q", res, status.Code(), status.Message(), wantMsg)
	}
	if got, err := pods.Get(ctx, "hopeless", meta.GetOptions{}); err != nil || got.Status.NominatedNodeName != "" {
		t.Errorf("hopeless keeps its nomination %q (%v)", got.Status.NominatedNodeName, err)
	}
}

// waitForEvent polls until an event with reason and message is recorded
// about the named object.
func waitForEvent(t *testing.T, ctx context.Context, cs *client.Set, ns, name, reason, message string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		list, err := cs.Events.Namespace(ns).List(ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range list.Items {
			if e.InvolvedObject.Name == name && e.Reason == reason && e.Message == message && e.Type == corev1.EventTypeNormal {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s event %q about %s among %d events", reason, message, name, len(list.Items))
		}
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}
