package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
)

// watchEvents is the stream every format test sends.
var watchEvents = []struct {
	typ  string
	name string // "" for the ERROR event
}{
	{meta.Added, "a"},
	{meta.Modified, "a"},
	{meta.Deleted, "a"},
	{meta.Bookmark, "b"},
	{meta.Error, ""},
}

var expired = apierrors.NewResourceExpired("too old resource version: 1 (40)")

func jsonStream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json;stream=watch")
	enc := json.NewEncoder(w)
	for _, ev := range watchEvents {
		var obj any = configMap(ev.name)
		if ev.typ == meta.Error {
			obj = expired.Status()
		}
		raw, _ := json.Marshal(obj)
		_ = enc.Encode(meta.WatchEvent{Type: ev.typ, Object: raw})
		http.NewResponseController(w).Flush()
	}
}

func protobufStream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", protobuf.MediaType+";stream=watch")
	for _, ev := range watchEvents {
		obj := protobuf.Encode("v1", "ConfigMap", configMap(ev.name))
		if ev.typ == meta.Error {
			st := expired.Status()
			obj = protobuf.Encode("v1", "Status", &st)
		}
		_, _ = w.Write(protoFrame(ev.typ, obj))
		http.NewResponseController(w).Flush()
	}
}

func TestWatchFormats(t *testing.T) {
	for _, tt := range []struct {
		name   string
		stream func(http.ResponseWriter)
	}{{"json", jsonStream}, {"protobuf", protobufStream}} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Get("watch") != "true" {
					t.Errorf("query %q lacks watch=true", r.URL.RawQuery)
				}
				tt.stream(w)
			}))
			defer srv.Close()
			c := testClient(t, srv, nil)
			w, err := c.Get().Version("v1").Namespace("ns").Resource("configmaps").Param("watch", "true").Watch(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			for i, want := range watchEvents {
				ev, err := w.Next()
				if ev.Type != want.typ {
					t.Fatalf("event %d type = %q, want %q", i, ev.Type, want.typ)
				}
				if want.typ == meta.Error {
					if !apierrors.IsResourceExpired(err) {
						t.Fatalf("ERROR event error = %v, want a 410 Expired StatusError", err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("event %d: %v", i, err)
				}
				var cm corev1.ConfigMap
				if err := ev.Decode(&cm); err != nil {
					t.Fatalf("event %d decode: %v", i, err)
				}
				if cm.Name != want.name || cm.Kind != "ConfigMap" || cm.Data["k"] != "v" {
					t.Fatalf("event %d object = %+v", i, cm)
				}
			}
			if _, err := w.Next(); err != io.EOF {
				t.Fatalf("after the last event: %v, want io.EOF", err)
			}
		})
	}
}

func TestWatchBadStreams(t *testing.T) {
	cm := configMap("a")
	tests := []struct {
		name    string
		write   func(http.ResponseWriter)
		wantErr error  // from Next, matched with errors.Is
		decode  error  // from Event.Decode
		text    string // from Next, contained in the message
	}{
		{"object without prefix", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", protobuf.MediaType)
			_, _ = w.Write(protoFrame(meta.Added, protobuf.Marshal(cm)))
		}, nil, protobuf.ErrNoPrefix, ""},
		{"truncated frame", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", protobuf.MediaType)
			f := protoFrame(meta.Added, protobuf.Encode("v1", "ConfigMap", cm))
			_, _ = w.Write(f[:len(f)-3])
		}, io.ErrUnexpectedEOF, nil, ""},
		{"oversized frame", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", protobuf.MediaType)
			_, _ = w.Write([]byte{0xff, 0xff, 0xff, 0xff})
		}, nil, nil, "over the limit"},
		{"truncated json", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":"ADDED","object":{"kind":`))
		}, io.ErrUnexpectedEOF, nil, ""},
		{"unknown type", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":"RENAMED","object":{}}`))
		}, nil, nil, "unknown event type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tt.write(w) }))
			defer srv.Close()
			c := testClient(t, srv, nil)
			w, err := c.Get().Version("v1").Resource("configmaps").Param("watch", "true").Watch(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			ev, err := w.Next()
			switch {
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Next error = %v, want %v", err, tt.wantErr)
				}
			case tt.text != "":
				if err == nil || !strings.Contains(err.Error(), tt.text) {
					t.Fatalf("Next error = %v, want one containing %q", err, tt.text)
				}
			case tt.decode != nil:
				if err != nil {
					t.Fatal(err)
				}
				if err := ev.Decode(&corev1.ConfigMap{}); !errors.Is(err, tt.decode) {
					t.Fatalf("Decode error = %v, want %v", err, tt.decode)
				}
			}
		})
	}
}

// openStream sends one event, then holds the stream open until the client
// goes away.
func openStream(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		raw, _ := json.Marshal(configMap("a"))
		_ = json.NewEncoder(w).Encode(meta.WatchEvent{Type: meta.Added, Object: raw})
		http.NewResponseController(w).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestWatchStops(t *testing.T) {
	tests := []struct {
		name    string
		stop    func(cancel context.CancelFunc, w *Watcher)
		wantErr error
	}{
		{"context cancelled", func(cancel context.CancelFunc, _ *Watcher) { cancel() }, context.Canceled},
		{"stop", func(_ context.CancelFunc, w *Watcher) { w.Stop() }, io.EOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := openStream(t)
			c := testClient(t, srv, func(c *Config) { c.Timeout = 20 * time.Millisecond })
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			w, err := c.Get().Version("v1").Resource("configmaps").Param("watch", "true").Watch(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if ev, err := w.Next(); err != nil || ev.Type != meta.Added {
				t.Fatalf("first event %v, %v", ev.Type, err)
			}
			time.Sleep(50 * time.Millisecond) // past Timeout, which a watch ignores
			done := make(chan error, 1)
			go func() {
				_, err := w.Next()
				done <- err
			}()
			time.AfterFunc(20*time.Millisecond, func() { tt.stop(cancel, w) })
			select {
			case err := <-done:
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Next after stopping = %v, want %v", err, tt.wantErr)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Next did not return after the stream was stopped")
			}
			if _, err := w.Next(); !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
				t.Fatalf("Next on a stopped watcher = %v", err)
			}
			w.Stop()
		})
	}
}

func TestWatchRefused(t *testing.T) {
	tests := []struct {
		name  string
		reply func(http.ResponseWriter)
		is    func(error) bool
	}{
		{"410 before the stream", func(w http.ResponseWriter) { writeProtoStatus(w, expired) }, apierrors.IsResourceExpired},
		{"403", func(w http.ResponseWriter) {
			writeJSONStatus(w, apierrors.NewForbidden(corev1.Resource("pods"), "", fmt.Errorf("no")))
		}, apierrors.IsForbidden},
		{"unsupported stream type", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte("data: x\n\n"))
		}, func(err error) bool {
			return err != nil && strings.Contains(err.Error(), "cannot decode a watch stream")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tt.reply(w) }))
			defer srv.Close()
			c := testClient(t, srv, nil)
			w, err := c.Get().Version("v1").Resource("pods").Param("watch", "true").Watch(t.Context())
			if w != nil || !tt.is(err) {
				t.Fatalf("Watch = %v, %v", w, err)
			}
		})
	}
}
