package client

import (
	"net/http"
	"testing"

	"platform.io/client/api/meta"
	"platform.io/client/rest"
	"platform.io/client/watch"
)

// TestMetadataKeepsMetadata: the metadata client of a custom resource
// reads JSON and keeps type and metadata only, for lists, watches and gets.
func TestMetadataKeepsMetadata(t *testing.T) {
	const obj = `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","namespace":"ns","uid":"u1",` +
		`"resourceVersion":"2","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"o","uid":"u0"}]},"spec":{"cron":"* * * * *"}}`
	f := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", rest.ContentTypeJSON)
		switch {
		case r.URL.Query().Get("watch") == "true":
			_, _ = w.Write([]byte(`{"type":"ADDED","object":` + obj + "}\n"))
		case r.URL.Path == "/apis/stable.example.com/v1/namespaces/ns/crontabs/a":
			_, _ = w.Write([]byte(obj))
		default:
			_, _ = w.Write([]byte(`{"kind":"CronTabList","apiVersion":"stable.example.com/v1","metadata":{"resourceVersion":"5"},"items":[` + obj + `]}`))
		}
	})
	r := NewDynamic(f.restClient(t, "")).Metadata(meta.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"})
	check := func(what string, m *meta.PartialObjectMetadata) {
		t.Helper()
		if m.Kind != "CronTab" || m.APIVersion != "stable.example.com/v1" || m.Name != "a" || m.UID != "u1" ||
			len(m.OwnerReferences) != 1 || m.OwnerReferences[0].UID != "u0" {
			t.Errorf("%s: %+v", what, m)
		}
	}
	items, lm, err := r.List(t.Context(), meta.ListOptions{})
	if err != nil || len(items) != 1 || lm.ResourceVersion != "5" {
		t.Fatalf("list: %v, %d items, %+v", err, len(items), lm)
	}
	check("list", items[0])
	got, err := r.Namespace("ns").Get(t.Context(), "a", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("get", got)
	w, err := r.Watch(t.Context(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev := <-w.ResultChan()
	w.Stop()
	if ev.Type != watch.Added {
		t.Fatalf("event %+v", ev)
	}
	check("watch", ev.Object)
	for _, req := range f.requests() {
		if req.Accept != rest.ContentTypeJSON {
			t.Errorf("%s %s asked for %q", req.Method, req.Path, req.Accept)
		}
	}
}
