package record

import (
	"context"
	"regexp"
	"sync"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// recordOne records one event through a watcher and returns it as queued.
func recordOne(t *testing.T, opts Options, do func(Recorder)) (*corev1.Event, Stats, []error) {
	t.Helper()
	var mu sync.Mutex
	var errs []error
	opts.OnError = func(_ *corev1.Event, err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	b := NewBroadcaster(opts)
	got := make(chan *corev1.Event, 1)
	b.StartEventWatcher(context.Background(), func(ev *corev1.Event) { got <- ev })
	do(b.NewRecorder(corev1.EventSource{Component: "ctl", Host: "h1"}))
	shutdown(t, b)
	select {
	case ev := <-got:
		return ev, b.Stats(), errs
	default:
		return nil, b.Stats(), errs
	}
}

func TestRecorder_InvolvedObjectAndNamespace(t *testing.T) {
	node := &corev1.Node{TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: meta.ObjectMeta{Name: "n1", UID: "u-n1"}}
	bare := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Namespace: "ns2", Name: "bare"}}
	ref := corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "ns3", Name: "r", FieldPath: "spec.containers{c}"}
	tests := []struct {
		name    string
		obj     any
		wantNS  string
		wantRef corev1.ObjectReference
	}{
		{"namespaced object", pod("ns1", "p1"), "ns1",
			corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "ns1", Name: "p1", UID: "uid-p1", ResourceVersion: "7"}},
		{"cluster-scoped object", node, corev1.NamespaceDefault,
			corev1.ObjectReference{Kind: "Node", APIVersion: "v1", Name: "n1", UID: "u-n1"}},
		{"kind resolved", bare, "ns2",
			corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "ns2", Name: "bare"}},
		{"reference value", ref, "ns3", ref},
		{"reference pointer", &ref, "ns3", ref},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			opts := Options{Clock: clock, ResolveKind: func(meta.Object) (string, string) { return "v1", "Pod" }}
			ev, _, errs := recordOne(t, opts, func(r Recorder) {
				r.AnnotatedEventf(tt.obj, map[string]string{"a": "b"}, corev1.EventTypeWarning, "Failed", "x=%d", 1)
			})
			if ev == nil {
				t.Fatalf("no event; errors %v", errs)
			}
			if ev.InvolvedObject != tt.wantRef || ev.Namespace != tt.wantNS {
				t.Fatalf("event in %q about %+v, want %q about %+v", ev.Namespace, ev.InvolvedObject, tt.wantNS, tt.wantRef)
			}
			now := meta.NewTime(clock.Now())
			if ev.Message != "x=1" || ev.Reason != "Failed" || ev.Type != corev1.EventTypeWarning || ev.Count != 1 ||
				!ev.FirstTimestamp.Equal(now.Time) || !ev.LastTimestamp.Equal(now.Time) || ev.Annotations["a"] != "b" ||
				ev.Source != (corev1.EventSource{Component: "ctl", Host: "h1"}) || ev.ReportingController != "ctl" || ev.ReportingInstance != "h1" {
				t.Fatalf("event %+v", ev)
			}
			if !regexp.MustCompile(`^` + regexp.QuoteMeta(tt.wantRef.Name) + `\.[0-9a-f]+$`).MatchString(ev.Name) {
				t.Fatalf("name %q", ev.Name)
			}
		})
	}
}

func TestRecorder_Rejects(t *testing.T) {
	var nilPod *corev1.Pod
	var nilRef *corev1.ObjectReference
	tests := []struct {
		name      string
		obj       any
		eventType string
	}{
		{"nil object", nil, corev1.EventTypeNormal},
		{"nil pointer", nilPod, corev1.EventTypeNormal},
		{"nil reference", nilRef, corev1.EventTypeNormal},
		{"not an object", "pod/p1", corev1.EventTypeNormal},
		{"no name", pod("ns", ""), corev1.EventTypeNormal},
		{"unknown type", pod("ns", "p"), "Fatal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, stats, errs := recordOne(t, Options{}, func(r Recorder) { r.Event(tt.obj, tt.eventType, "R", "m") })
			if ev != nil || stats.Invalid != 1 || len(errs) != 1 {
				t.Fatalf("event %v, stats %+v, errors %v", ev, stats, errs)
			}
		})
	}
}

func TestRecorder_UniqueNames(t *testing.T) {
	b := NewBroadcaster(Options{Clock: newFakeClock()})
	var names []string
	b.StartEventWatcher(context.Background(), func(ev *corev1.Event) { names = append(names, ev.Name) })
	r := b.NewRecorder(corev1.EventSource{Component: "ctl"})
	for range 3 {
		r.Event(pod("ns", "p"), corev1.EventTypeNormal, "R", "m")
	}
	shutdown(t, b)
	if len(names) != 3 || names[0] == names[1] || names[1] == names[2] {
		t.Fatalf("names %v", names)
	}
}
