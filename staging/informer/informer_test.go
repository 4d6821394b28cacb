package informer

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
)

// TestInformerHandlersInOrder runs a blocked handler beside a free one: the
// free one sees every change, in order, while the other is stuck, and the
// stuck one catches up with the same sequence.
func TestInformerHandlersInOrder(t *testing.T) {
	s := newFakeServer()
	seed(s, 2)
	fast, slow := &recorder{}, &recorder{}
	inf, _ := newPodInformer(t, s, fast, Options{})
	unblock := make(chan struct{})
	h := slow.handler()
	add := h.OnAdd
	h.OnAdd = func(p *corev1.Pod, initial bool) {
		<-unblock
		add(p, initial)
	}
	reg, err := inf.AddEventHandler(h)
	if err != nil {
		t.Fatal(err)
	}
	run(t, inf)
	waitSynced(t, inf)
	s.update(pod("ns", "p0001", nil))
	s.create(pod("ns", "p0002", nil))
	s.update(pod("ns", "p0002", map[string]string{"a": "b"}))
	s.remove("ns", "p0000")
	want := []string{
		"add ns/p0000@101 initial", "add ns/p0001@102 initial",
		"update ns/p0001@102->103", "add ns/p0002@104", "update ns/p0002@104->105", "delete ns/p0000@106",
	}
	if got := fast.wait(t, len(want)); !slices.Equal(got, want) {
		t.Errorf("fast handler:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(slow.get()) != 0 || reg.HasSynced() {
		t.Fatalf("blocked handler progressed: %q, synced %v", slow.get(), reg.HasSynced())
	}
	close(unblock)
	if got := slow.wait(t, len(want)); !slices.Equal(got, want) {
		t.Errorf("slow handler:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	eventually(t, "registration sync", reg.HasSynced)
}

func TestInformerLateHandler(t *testing.T) {
	s := newFakeServer()
	seed(s, 3)
	inf, _ := newPodInformer(t, s, nil, Options{})
	run(t, inf)
	waitSynced(t, inf)
	s.update(pod("ns", "p0001", nil)) // @104
	eventually(t, "update", func() bool { return inf.LastSyncResourceVersion() == "104" })

	late := &recorder{}
	reg, err := inf.AddEventHandler(late.handler())
	if err != nil {
		t.Fatal(err)
	}
	s.create(pod("ns", "p0003", nil)) // @105
	got := sortedPrefix(late.wait(t, 4), 3)
	want := strings.Join([]string{
		"add ns/p0000@101 initial", "add ns/p0001@104 initial", "add ns/p0002@103 initial", "add ns/p0003@105",
	}, "\n")
	if got != want {
		t.Errorf("late handler:\n%s\nwant:\n%s", got, want)
	}
	eventually(t, "registration sync", reg.HasSynced)
}

func TestInformerResync(t *testing.T) {
	cases := []struct {
		name        string
		defaultSync time.Duration
		handlers    []time.Duration // -1: AddEventHandler (default period)
		step        time.Duration
		steps       int
		wantResyncs []int // per handler, in objects (2 per resync)
	}{
		{"no resync", 0, []time.Duration{-1}, 10 * time.Second, 2, []int{0}},
		{"default period", 10 * time.Second, []time.Duration{-1}, 10 * time.Second, 2, []int{4}},
		{"per handler", 0, []time.Duration{10 * time.Second, 0, 20 * time.Second}, 10 * time.Second, 2, []int{4, 0, 2}},
		{"tiny period is raised to MinResyncPeriod", 0, []time.Duration{time.Millisecond}, MinResyncPeriod / 2, 2, []int{2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeServer()
			seed(s, 2)
			inf, clock := newPodInformer(t, s, nil, Options{ResyncPeriod: tc.defaultSync})
			recs := make([]*recorder, len(tc.handlers))
			for i, p := range tc.handlers {
				recs[i] = &recorder{}
				var err error
				if p < 0 {
					_, err = inf.AddEventHandler(recs[i].handler())
				} else {
					_, err = inf.AddEventHandlerWithResync(recs[i].handler(), p)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			run(t, inf)
			waitSynced(t, inf)
			resyncs := tc.defaultSync > 0 || slices.ContainsFunc(tc.handlers, func(p time.Duration) bool { return p > 0 })
			for range tc.steps {
				if resyncs {
					eventually(t, "resync timer", func() bool { return clock.Pending() == 1 })
				}
				clock.Step(tc.step)
			}
			for i, rec := range recs {
				want := 2 + tc.wantResyncs[i]
				got := rec.wait(t, want)
				if len(got) != want {
					t.Errorf("handler %d: %d events, want %d: %q", i, len(got), want, got)
				}
				for _, e := range got[2:] {
					_, rvs, _ := strings.Cut(e, "@")
					oldRV, newRV, _ := strings.Cut(rvs, "->")
					if !strings.HasPrefix(e, "update ") || oldRV != newRV {
						t.Errorf("handler %d: resync event %q is not update(old == new)", i, e)
					}
				}
			}
		})
	}
}

func TestInformerRemoveHandlerAndStop(t *testing.T) {
	s := newFakeServer()
	seed(s, 1)
	kept, removed := &recorder{}, &recorder{}
	inf, _ := newPodInformer(t, s, kept, Options{})
	reg, err := inf.AddEventHandler(removed.handler())
	if err != nil {
		t.Fatal(err)
	}
	run(t, inf)
	waitSynced(t, inf)
	removed.wait(t, 1)
	reg.Remove()
	reg.Remove()
	s.create(pod("ns", "x", nil))
	kept.wait(t, 2)
	if got := removed.get(); len(got) != 1 {
		t.Errorf("removed handler got %q", got)
	}
}

func TestInformerAddHandlerAfterStop(t *testing.T) {
	s := newFakeServer()
	inf, _ := newPodInformer(t, s, nil, Options{})
	t.Run("run", func(t *testing.T) { run(t, inf); waitSynced(t, inf) })
	if _, err := inf.AddEventHandler(ResourceEventHandler[*corev1.Pod]{}); !errors.Is(err, ErrStopped) {
		t.Errorf("AddEventHandler after stop: %v, want ErrStopped", err)
	}
}

func TestInformerIndexers(t *testing.T) {
	s := newFakeServer()
	for i := range 6 {
		p := pod("ns", fmt.Sprintf("p%d", i), nil)
		p.Spec.NodeName = fmt.Sprintf("node-%d", i%2)
		s.create(p)
	}
	inf, _ := newPodInformer(t, s, nil, Options{})
	byNode := func(p *corev1.Pod) []string { return []string{p.Spec.NodeName} }
	if err := inf.AddIndexers(Indexers[*corev1.Pod]{"node": byNode}); err != nil {
		t.Fatal(err)
	}
	run(t, inf)
	waitSynced(t, inf)
	moved := *s.get("ns/p0")
	moved.Spec.NodeName = "node-1"
	s.update(&moved)
	eventually(t, "move", func() bool {
		objs, _ := inf.GetStore().ByIndex("node", "node-1")
		return len(objs) == 4
	})
	if objs, _ := inf.GetStore().ByIndex("node", "node-0"); len(objs) != 2 {
		t.Errorf("node-0 has %d pods, want 2", len(objs))
	}
}
