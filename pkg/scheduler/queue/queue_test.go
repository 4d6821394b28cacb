package queue

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/scheduler/framework"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time         { return c.t }
func (c *fakeClock) step(d time.Duration)   { c.t = c.t.Add(d) }
func prio(p *framework.QueuedPodInfo) int32 { return *p.Pod.Spec.Priority }

func less(a, b *framework.QueuedPodInfo) bool {
	if prio(a) != prio(b) {
		return prio(a) > prio(b)
	}
	return a.Timestamp.Before(b.Timestamp)
}

func pod(name string, priority int32) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns", UID: meta.UID(name)},
		Spec: corev1.PodSpec{Priority: &priority}}
}

func newQueue(c *fakeClock, events map[string][]framework.ClusterEvent) *Queue {
	return New(Options{Less: less, Clock: c, InitialBackoff: time.Second, MaxBackoff: 10 * time.Second,
		MaxInUnschedulable: 5 * time.Minute, PluginEvents: events})
}

func popNames(t *testing.T, q *Queue) []string {
	t.Helper()
	var out []string
	for {
		if a, _, _ := q.Sizes(); a == 0 {
			return out
		}
		qpi, err := q.Pop()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, qpi.Pod.Name)
	}
}

func TestPopOrder(t *testing.T) {
	tests := []struct {
		name string
		pods []*corev1.Pod
		want []string
	}{
		{"priority first", []*corev1.Pod{pod("low", 1), pod("high", 10), pod("mid", 5)}, []string{"high", "mid", "low"}},
		{"then age", []*corev1.Pod{pod("a", 1), pod("b", 1), pod("c", 1)}, []string{"a", "b", "c"}},
		{"mixed", []*corev1.Pod{pod("a", 1), pod("b", 2), pod("c", 1)}, []string{"b", "a", "c"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &fakeClock{t: time.Unix(1000, 0)}
			q := newQueue(c, nil)
			for _, p := range tc.pods {
				q.Add(p)
				c.step(time.Millisecond)
			}
			if diff := cmp.Diff(tc.want, popNames(t, q)); diff != "" {
				t.Errorf("pop order (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBackoffDuration(t *testing.T) {
	q := newQueue(&fakeClock{}, nil)
	got := []time.Duration{}
	for a := 1; a <= 6; a++ {
		got = append(got, q.backoffDuration(a))
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("backoff (-want +got):\n%s", diff)
	}
}

var nodeAdd = framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.Add, Label: "NodeAdd"}
var podDelete = framework.ClusterEvent{Resource: framework.PodResource, ActionType: framework.Delete, Label: "PodDelete"}

func TestFailedPodPlacement(t *testing.T) {
	events := map[string][]framework.ClusterEvent{
		"NodeOnly": {{Resource: framework.NodeResource, ActionType: framework.All}},
	}
	tests := []struct {
		name       string
		plugins    map[string]bool
		moveBefore bool // a move request during the pod's cycle
		event      framework.ClusterEvent
		advance    time.Duration
		wantAfter  string // where the pod is after failure
		wantEvent  string // after the event
		wantFlush  string // after advance and both flushes
	}{
		{"error goes to backoff", nil, false, podDelete, time.Second, "backoff", "backoff", "active"},
		{"unschedulable goes to pool", map[string]bool{"NodeOnly": true}, false, podDelete, time.Second, "unschedulable", "unschedulable", "unschedulable"},
		{"registered event moves it", map[string]bool{"NodeOnly": true}, false, nodeAdd, 0, "unschedulable", "backoff", "backoff"},
		{"event after backoff moves to active", map[string]bool{"NodeOnly": true}, false, framework.ClusterEvent{}, 2 * time.Second, "unschedulable", "unschedulable", "unschedulable"},
		{"unregistered plugin cares about all", map[string]bool{"Other": true}, false, podDelete, 0, "unschedulable", "backoff", "backoff"},
		{"move during cycle sends to backoff", map[string]bool{"NodeOnly": true}, true, podDelete, time.Second, "backoff", "backoff", "active"},
		{"leftover flushed after 5m", map[string]bool{"NodeOnly": true}, false, podDelete, 6 * time.Minute, "unschedulable", "unschedulable", "active"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &fakeClock{t: time.Unix(1000, 0)}
			q := newQueue(c, events)
			p := pod("p", 1)
			q.Add(p)
			qpi, _ := q.Pop()
			cycle := q.SchedulingCycle()
			if tc.moveBefore {
				q.MoveAllToActiveOrBackoffQueue(nodeAdd, nil)
			}
			qpi.UnschedulablePlugins = tc.plugins
			q.AddUnschedulableIfNotPresent(qpi, cycle)
			if got := q.Where(p); got != tc.wantAfter {
				t.Fatalf("after failure: in %q, want %q", got, tc.wantAfter)
			}
			if tc.event.Resource != "" {
				q.MoveAllToActiveOrBackoffQueue(tc.event, nil)
			}
			if got := q.Where(p); got != tc.wantEvent {
				t.Fatalf("after event: in %q, want %q", got, tc.wantEvent)
			}
			c.step(tc.advance)
			q.FlushBackoffCompleted()
			q.FlushUnschedulableLeftover()
			if got := q.Where(p); got != tc.wantFlush {
				t.Fatalf("after %s and flushes: in %q, want %q", tc.advance, got, tc.wantFlush)
			}
		})
	}
}

func TestUpdateAndDelete(t *testing.T) {
	c := &fakeClock{t: time.Unix(1000, 0)}
	q := newQueue(c, map[string][]framework.ClusterEvent{"NodeOnly": {{Resource: framework.NodeResource, ActionType: framework.All}}})
	p := pod("p", 1)
	q.Add(p)
	qpi, _ := q.Pop()
	qpi.UnschedulablePlugins = map[string]bool{"NodeOnly": true}
	q.AddUnschedulableIfNotPresent(qpi, q.SchedulingCycle())

	cp := *p
	statusOnly := &cp
	statusOnly.Status.Message = "x"
	q.Update(p, statusOnly)
	if got := q.Where(p); got != "unschedulable" {
		t.Fatalf("status-only update moved the pod to %q", got)
	}
	c.step(5 * time.Second)
	cp2 := *statusOnly
	relabeled := &cp2
	relabeled.Labels = map[string]string{"a": "b"}
	q.Update(statusOnly, relabeled)
	if got := q.Where(p); got != "active" {
		t.Fatalf("spec update left the pod in %q", got)
	}
	q.Delete(relabeled)
	if got := q.Where(p); got != "" {
		t.Fatalf("deleted pod still in %q", got)
	}
	// An update of a pod found nowhere adds it.
	q.Update(nil, p)
	if got := q.Where(p); got != "active" {
		t.Fatalf("update of an unknown pod: in %q", got)
	}
}

func TestNominator(t *testing.T) {
	c := &fakeClock{t: time.Unix(1000, 0)}
	q := newQueue(c, nil)
	p := pod("p", 5)
	p.Status.NominatedNodeName = "n1"
	q.Add(p)
	names := func(node string) []string {
		var out []string
		for _, pi := range q.Nominator().NominatedPodsForNode(node) {
			out = append(out, pi.Pod.Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{"p"}, names("n1")); diff != "" {
		t.Fatalf("nominated from status (-want +got):\n%s", diff)
	}
	q.Nominator().AddNominatedPod(framework.NewPodInfo(pod("q", 1)), "n2")
	q.Nominator().AddNominatedPod(framework.NewPodInfo(pod("q", 1)), "n1")
	if diff := cmp.Diff([]string{"p", "q"}, names("n1")); diff != "" {
		t.Fatalf("renominated (-want +got):\n%s", diff)
	}
	if got := names("n2"); got != nil {
		t.Fatalf("old nomination kept: %v", got)
	}
	q.Delete(p)
	if diff := cmp.Diff([]string{"q"}, names("n1")); diff != "" {
		t.Fatalf("after delete (-want +got):\n%s", diff)
	}
}

func TestPopBlocksUntilAddOrClose(t *testing.T) {
	q := newQueue(&fakeClock{t: time.Unix(1, 0)}, nil)
	got := make(chan error, 2)
	go func() {
		_, err := q.Pop()
		got <- err
		_, err = q.Pop()
		got <- err
	}()
	q.Add(pod("a", 1))
	if err := <-got; err != nil {
		t.Fatalf("first pop: %v", err)
	}
	q.Close()
	if err := <-got; err != ErrClosed {
		t.Fatalf("pop after close: %v, want ErrClosed", err)
	}
}
