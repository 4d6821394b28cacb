package podgc

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/informer"
)

var t0 = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

type fakeAPI struct {
	nodes   map[string]bool
	deleted []string
	checked []string
}

func (f *fakeAPI) ForceDeletePod(_ context.Context, _, name string, _ meta.UID) error {
	f.deleted = append(f.deleted, name)
	return nil
}

func (f *fakeAPI) NodeExists(_ context.Context, name string) (bool, error) {
	f.checked = append(f.checked, name)
	if f.nodes[name] {
		return true, nil
	}
	return false, apierrors.NewNotFound(corev1.Resource("nodes"), name)
}

func pod(name, node string, ph corev1.PodPhase, age time.Duration) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns", CreationTimestamp: meta.NewTime(t0.Add(-age))},
		Spec: corev1.PodSpec{NodeName: node}}
	p.Status.Phase = ph
	return p
}

func terminating(p *corev1.Pod) *corev1.Pod {
	ts := meta.NewTime(t0)
	p.DeletionTimestamp = &ts
	return p
}

// newGC returns a collector over pods and the cached nodes, with a clock
// the test moves.
func newGC(pods []*corev1.Pod, cached []string, threshold int, now *time.Time, f *fakeAPI) *GC {
	ps, ns := informer.NewStore[*corev1.Pod](), informer.NewStore[*corev1.Node]()
	for _, p := range pods {
		ps.Add(p)
	}
	for _, n := range cached {
		ns.Add(&corev1.Node{ObjectMeta: meta.ObjectMeta{Name: n}})
	}
	return &GC{lg: zap.NewNop(), pods: informer.NewLister(ps, corev1.Resource("pods")),
		nodes: informer.NewLister(ns, corev1.Resource("nodes")), api: f, threshold: threshold,
		timing:       Timing{Period: time.Second, Quarantine: DefaultQuarantine, Now: func() time.Time { return *now }},
		missingSince: map[string]time.Time{}}
}

func TestPass_Terminated(t *testing.T) {
	pods := []*corev1.Pod{
		pod("new-ok", "n1", corev1.PodSucceeded, time.Minute),
		pod("old-failed", "n1", corev1.PodFailed, time.Hour),
		pod("mid-ok", "n1", corev1.PodSucceeded, 10*time.Minute),
		pod("running", "n1", corev1.PodRunning, 2*time.Hour),
	}
	cases := []struct {
		threshold int
		want      []string
	}{
		{threshold: 0},
		{threshold: 3},
		{threshold: 2, want: []string{"old-failed"}},
		{threshold: 1, want: []string{"old-failed", "mid-ok"}},
	}
	for _, tc := range cases {
		now := t0
		f := &fakeAPI{}
		if err := newGC(pods, []string{"n1"}, tc.threshold, &now, f).Pass(context.Background()); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, f.deleted); diff != "" {
			t.Errorf("threshold %d: deleted (-want +got):\n%s", tc.threshold, diff)
		}
	}
}

func TestPass_UnscheduledTerminating(t *testing.T) {
	now := t0
	f := &fakeAPI{}
	pods := []*corev1.Pod{terminating(pod("unscheduled", "", corev1.PodPending, 0)),
		terminating(pod("scheduled", "n1", corev1.PodRunning, 0)), pod("pending", "", corev1.PodPending, 0)}
	if err := newGC(pods, []string{"n1"}, 0, &now, f).Pass(context.Background()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"unscheduled"}, f.deleted); diff != "" {
		t.Errorf("deleted (-want +got):\n%s", diff)
	}
}

// TestPass_Orphaned: pods of a node missing from the cache are deleted only
// after the quarantine, and only if the server says the node is gone.
func TestPass_Orphaned(t *testing.T) {
	now := t0
	f := &fakeAPI{nodes: map[string]bool{"late": true}}
	pods := []*corev1.Pod{pod("a", "gone", corev1.PodRunning, 0), pod("b", "gone", corev1.PodSucceeded, 0),
		pod("c", "late", corev1.PodRunning, 0), pod("d", "here", corev1.PodRunning, 0)}
	g := newGC(pods, []string{"here"}, 0, &now, f)
	steps := []struct {
		after       time.Duration
		wantDeleted []string
		wantChecked []string
	}{
		{after: 0},
		{after: 39 * time.Second},
		{after: 40 * time.Second, wantDeleted: []string{"a", "b"}, wantChecked: []string{"gone", "late"}},
	}
	for _, s := range steps {
		now = t0.Add(s.after)
		f.deleted, f.checked = nil, nil
		if err := g.Pass(context.Background()); err != nil {
			t.Fatal(err)
		}
		slices.Sort(f.deleted)
		slices.Sort(f.checked)
		if diff := cmp.Diff(s.wantDeleted, f.deleted); diff != "" {
			t.Errorf("at +%v deleted (-want +got):\n%s", s.after, diff)
		}
		if diff := cmp.Diff(s.wantChecked, f.checked); diff != "" {
			t.Errorf("at +%v checked (-want +got):\n%s", s.after, diff)
		}
	}
	if _, ok := g.missingSince["late"]; ok {
		t.Errorf("a node found on the server stays quarantined")
	}
}

func TestOptions_Validate(t *testing.T) {
	if errs := (&Options{Threshold: -1}).Validate(); len(errs) != 1 {
		t.Errorf("negative threshold: %v", errs)
	}
	if errs := NewOptions().Validate(); len(errs) != 0 {
		t.Errorf("defaults: %v", errs)
	}
}
