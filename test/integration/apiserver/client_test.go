package apiserver

import (
	"context"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/rest"

	"platform.io/platform/test/integration/framework"
)

// TestStagingClient_Protobuf: the staging REST client talks to the real
// server in protobuf by default (request bodies, responses, watch frames)
// and in JSON when configured so, with typed errors from Status bodies.
func TestStagingClient_Protobuf(t *testing.T) {
	s := framework.Start(t)
	for _, ct := range []string{"", "application/json"} {
		t.Run("contentType="+ct, func(t *testing.T) {
			c, err := rest.NewClient(&rest.Config{Host: s.URL, ContentType: ct, QPS: -1})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			name := "client-json"
			wantType := "application/json"
			if ct == "" {
				name, wantType = "client-pb", "application/vnd.platform.protobuf"
			}
			cm := &corev1.ConfigMap{TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: meta.ObjectMeta{Name: name}, Data: map[string]string{"k": "v"}}
			var created corev1.ConfigMap
			res := c.Post().Version("v1").Namespace("default").Resource("configmaps").Body(cm).Do(ctx)
			if err := res.Into(&created); err != nil {
				t.Fatal(err)
			}
			if res.ContentType() != wantType || created.ResourceVersion == "" || created.Data["k"] != "v" {
				t.Fatalf("created (%s): %+v", res.ContentType(), created)
			}
			w, err := c.Get().Version("v1").Namespace("default").Resource("configmaps").
				Param("watch", "true").Param("resourceVersion", created.ResourceVersion).Param("timeoutSeconds", "10").Watch(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			created.Data["k"] = "w"
			var updated corev1.ConfigMap
			if err := c.Put().Version("v1").Namespace("default").Resource("configmaps").Name(name).Body(&created).Do(ctx).Into(&updated); err != nil {
				t.Fatal(err)
			}
			ev, err := w.Next()
			if err != nil {
				t.Fatal(err)
			}
			var seen corev1.ConfigMap
			if err := ev.Decode(&seen); err != nil || ev.Type != "MODIFIED" || seen.Data["k"] != "w" || ev.MediaType != wantType {
				t.Fatalf("watch event %s (%s) %+v: %v", ev.Type, ev.MediaType, seen, err)
			}
			var list corev1.ConfigMapList
			if err := c.Get().Version("v1").Namespace("default").Resource("configmaps").Do(ctx).Into(&list); err != nil || len(list.Items) == 0 {
				t.Fatalf("list: %d items, %v", len(list.Items), err)
			}
			err = c.Get().Version("v1").Namespace("default").Resource("configmaps").Name("missing").Do(ctx).Error()
			if !apierrors.IsNotFound(err) {
				t.Fatalf("missing object: %v", err)
			}
			err = c.Post().Version("v1").Namespace("default").Resource("configmaps").Body(cm).Do(ctx).Error()
			if !apierrors.IsAlreadyExists(err) {
				t.Fatalf("second create: %v", err)
			}
		})
	}
}
