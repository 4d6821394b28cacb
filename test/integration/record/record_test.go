// Package record_test checks the staging event recorder against a real API
// server: events are created, correlated by patches, and found again by
// field selectors.
package record_test

import (
	"context"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/record"
	"platform.io/client/rest"

	"platform.io/platform/test/integration/framework"
)

// TestRecorder_PodEvents: identical events about a pod become one event
// whose count goes up, listed by involvedObject.name apart from the events
// of another object.
func TestRecorder_PodEvents(t *testing.T) {
	s := framework.Start(t)
	c, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pod := createPod(ctx, t, c, "web")

	b := record.NewBroadcaster(record.Options{})
	b.StartRecordingToSink(ctx, record.NewRESTSink(c))
	r := b.NewRecorder(corev1.EventSource{Component: "it-controller", Host: "node-1"})
	for range 3 {
		r.Event(pod, corev1.EventTypeNormal, "Pulled", "image pulled")
	}
	r.Eventf(&corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "default", Name: "other"},
		corev1.EventTypeWarning, "BackOff", "restarting %s", "other")
	if err := b.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if st := b.Stats(); st != (record.Stats{}) {
		t.Fatalf("stats %+v", st)
	}

	evs := listEvents(ctx, t, c, "involvedObject.name=web")
	if len(evs) != 1 {
		t.Fatalf("%d events for the pod, want 1: %+v", len(evs), evs)
	}
	ev := evs[0]
	if ev.Count != 3 || ev.Reason != "Pulled" || ev.Type != corev1.EventTypeNormal || ev.Source.Component != "it-controller" ||
		ev.InvolvedObject.UID != pod.UID || ev.InvolvedObject.Kind != "Pod" || ev.LastTimestamp.Before(ev.FirstTimestamp.Time) {
		t.Fatalf("event %+v", ev)
	}
	if others := listEvents(ctx, t, c, "involvedObject.name=other"); len(others) != 1 || others[0].Count != 1 || others[0].Message != "restarting other" {
		t.Fatalf("events for the other object: %+v", others)
	}
}

// TestRESTSink_TakenNameUpdates: the fallback the recorder uses for a taken
// name works on the server: create reports AlreadyExists, and an update
// without a resourceVersion replaces the event.
func TestRESTSink_TakenNameUpdates(t *testing.T) {
	s := framework.Start(t)
	c, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sink := record.NewRESTSink(c)
	ev := &corev1.Event{
		ObjectMeta:     meta.ObjectMeta{Name: "p.1", Namespace: "default"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "default", Name: "p"},
		Reason:         "R", Message: "first", Type: corev1.EventTypeNormal, Count: 1,
	}
	if _, err := sink.Create(ctx, ev); err != nil {
		t.Fatal(err)
	}
	ev.Message = "second"
	if _, err := sink.Create(ctx, ev); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("second create: %v", err)
	}
	got, err := sink.Update(ctx, ev)
	if err != nil || got.Message != "second" {
		t.Fatalf("update: %+v, %v", got, err)
	}
	got, err = sink.Patch(ctx, ev, []byte(`{"count":4,"message":"patched"}`))
	if err != nil || got.Count != 4 || got.Message != "patched" {
		t.Fatalf("patch: %+v, %v", got, err)
	}
}

func createPod(ctx context.Context, t *testing.T, c *rest.Client, name string) *corev1.Pod {
	t.Helper()
	in := &corev1.Pod{
		TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
	}
	out := &corev1.Pod{}
	if err := c.Post().Version("v1").Namespace("default").Resource("pods").Body(in).Do(ctx).Into(out); err != nil {
		t.Fatal(err)
	}
	if out.UID == "" || out.Kind != "Pod" {
		t.Fatalf("created pod %+v", out.ObjectMeta)
	}
	return out
}

func listEvents(ctx context.Context, t *testing.T, c *rest.Client, selector string) []corev1.Event {
	t.Helper()
	var list corev1.EventList
	err := c.Get().Version("v1").Namespace("default").Resource("events").
		Param("fieldSelector", selector).Do(ctx).Into(&list)
	if err != nil {
		t.Fatal(err)
	}
	return list.Items
}
