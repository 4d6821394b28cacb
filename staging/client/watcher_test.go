package client

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
	"platform.io/client/rest"
	"platform.io/client/watch"
)

// streamEvent is one event a test stream sends: a config map named name
// with resourceVersion rv, or, for ERROR, an Expired status.
type streamEvent struct {
	typ, name, rv string
}

func testStream() []streamEvent {
	return []streamEvent{
		{meta.Added, "a", "1"},
		{meta.Modified, "a", "2"},
		{meta.Bookmark, "", "3"},
		{meta.Error, "", ""},
		{meta.Deleted, "a", "4"},
	}
}

func streamObject(ev streamEvent) (any, protobuf.Message, string) {
	if ev.typ == meta.Error {
		st := apierrors.NewResourceExpired("too old resource version: 1 (3)").Status()
		return st, &st, "Status"
	}
	cm := &corev1.ConfigMap{TypeMeta: meta.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"}, ObjectMeta: meta.ObjectMeta{Name: ev.name, ResourceVersion: ev.rv}}
	return cm, cm, "ConfigMap"
}

// serveStream writes events in JSON or protobuf, then ends the stream.
func serveStream(proto bool, events []streamEvent) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if proto {
			w.Header().Set("Content-Type", protobuf.MediaType+";stream=watch")
		} else {
			w.Header().Set("Content-Type", rest.ContentTypeJSON+";stream=watch")
		}
		enc := json.NewEncoder(w)
		for _, ev := range events {
			obj, msg, kind := streamObject(ev)
			if proto {
				_, _ = w.Write(protoFrame(ev.typ, protobuf.Encode("v1", kind, msg)))
			} else {
				raw, _ := json.Marshal(obj)
				_ = enc.Encode(meta.WatchEvent{Type: ev.typ, Object: raw})
			}
			http.NewResponseController(w).Flush()
		}
	}
}

// collect reads events until the channel is closed.
func collect[O any](t *testing.T, w watch.Interface[O]) []watch.Event[O] {
	t.Helper()
	var out []watch.Event[O]
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return out
			}
			out = append(out, ev)
		case <-timeout:
			t.Fatalf("the result channel was not closed; got %d events", len(out))
		}
	}
}

func TestWatchAdaptation(t *testing.T) {
	for _, proto := range []bool{true, false} {
		name := map[bool]string{true: "protobuf", false: "json"}[proto]
		t.Run(name, func(t *testing.T) {
			f := newFakeServer(t, serveStream(proto, testStream()))
			c := NewSet(f.restClient(t, "")).ConfigMaps.Namespace("ns")
			w, err := c.Watch(t.Context(), meta.ListOptions{ResourceVersion: "1", AllowWatchBookmarks: true})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			got := collect(t, w)
			if q := f.requests()[0].Query; q != "allowWatchBookmarks=true&resourceVersion=1&watch=true" {
				t.Errorf("query %q", q)
			}
			want := testStream()
			if len(got) != len(want) {
				t.Fatalf("%d events, want %d: %+v", len(got), len(want), got)
			}
			for i, ev := range got {
				checkEvent(t, ev, want[i])
			}
		})
	}
}

func checkEvent(t *testing.T, got watch.Event[*corev1.ConfigMap], want streamEvent) {
	t.Helper()
	if string(got.Type) != want.typ {
		t.Errorf("event type %s, want %s", got.Type, want.typ)
		return
	}
	if want.typ == meta.Error {
		if got.Object != nil || got.Status == nil || got.Status.Reason != meta.StatusReasonExpired || got.Status.Code != http.StatusGone {
			t.Errorf("ERROR event: object %v, status %+v", got.Object, got.Status)
		}
		return
	}
	if got.Status != nil || got.Object == nil {
		t.Fatalf("%s event: object %v, status %+v", got.Type, got.Object, got.Status)
	}
	wantMeta := meta.ObjectMeta{Name: want.name, ResourceVersion: want.rv}
	if diff := cmp.Diff(wantMeta, got.Object.ObjectMeta); diff != "" {
		t.Errorf("%s object (-want +got):\n%s", got.Type, diff)
	}
}

func TestWatchUnreadableStream(t *testing.T) {
	tests := []struct {
		name  string
		reply http.HandlerFunc
		first int // events delivered before the failure
	}{
		{"undecodable object", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", rest.ContentTypeJSON)
			_, _ = w.Write([]byte(`{"type":"ADDED","object":{"metadata":{"name":"a"}}}` + "\n"))
			_, _ = w.Write([]byte(`{"type":"ADDED","object":{"metadata":"not an object"}}` + "\n"))
			_, _ = w.Write([]byte(`{"type":"ADDED","object":{"metadata":{"name":"never"}}}` + "\n"))
		}, 1},
		{"unknown event type", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", rest.ContentTypeJSON)
			_, _ = w.Write([]byte(`{"type":"RENAMED","object":{}}` + "\n"))
		}, 0},
		{"truncated frame", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", protobuf.MediaType)
			_, _ = w.Write([]byte{0, 0, 0, 9, 1, 2})
		}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeServer(t, tt.reply)
			w, err := NewSet(f.restClient(t, "")).ConfigMaps.Watch(t.Context(), meta.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := collect(t, w)
			if len(got) != tt.first+1 {
				t.Fatalf("%d events, want %d then an error: %+v", len(got), tt.first, got)
			}
			last := got[len(got)-1]
			if last.Type != watch.Error || last.Status == nil || last.Status.Reason != meta.StatusReasonInternalError || last.Status.Code != 500 {
				t.Errorf("last event %s %+v, want an InternalError", last.Type, last.Status)
			}
		})
	}
}

// TestWatchEnds: Stop and the end of the context each close the result
// channel of a stream the server keeps open, whether or not the consumer
// is reading.
func TestWatchEnds(t *testing.T) {
	open := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", rest.ContentTypeJSON)
		_, _ = w.Write([]byte(`{"type":"ADDED","object":{"metadata":{"name":"a"}}}` + "\n"))
		http.NewResponseController(w).Flush()
		<-r.Context().Done()
	}
	tests := []struct {
		name string
		end  func(w watch.Interface[*corev1.ConfigMap], cancel context.CancelFunc)
	}{
		{"stop", func(w watch.Interface[*corev1.ConfigMap], _ context.CancelFunc) { w.Stop(); w.Stop() }},
		{"context", func(_ watch.Interface[*corev1.ConfigMap], cancel context.CancelFunc) { cancel() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeServer(t, open)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			w, err := NewSet(f.restClient(t, "")).ConfigMaps.Namespace("ns").Watch(ctx, meta.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond) // the ADDED event is pending, unread
			tt.end(w, cancel)
			for _, ev := range collect(t, w) {
				if ev.Type == watch.Error {
					t.Errorf("an ended watch reported %+v", ev.Status)
				}
			}
		})
	}
}
