package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	appsv1 "platform.io/client/api/apps/v1"
	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
	"platform.io/client/rest"
)

// pathTest is a call and the request it must send.
type pathTest struct {
	name              string
	call              func(ctx context.Context, s *Set) error
	method, path, qry string
	contentType       string
}

func pathTests() []pathTest {
	pod := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "p"}}
	wo := meta.WriteOptions{FieldManager: "me", DryRun: []string{meta.DryRunAll}}
	return []pathTest{
		{"create", func(ctx context.Context, s *Set) error {
			_, err := s.Pods.Namespace("ns").Create(ctx, pod, wo)
			return err
		}, "POST", "/api/v1/namespaces/ns/pods", "dryRun=All&fieldManager=me", rest.ContentTypeJSON},
		{"get", func(ctx context.Context, s *Set) error {
			_, err := s.Pods.Namespace("ns").Get(ctx, "p", meta.GetOptions{ResourceVersion: "7"})
			return err
		}, "GET", "/api/v1/namespaces/ns/pods/p", "resourceVersion=7", ""},
		{"update", func(ctx context.Context, s *Set) error {
			_, err := s.Pods.Namespace("ns").Update(ctx, pod, meta.WriteOptions{})
			return err
		}, "PUT", "/api/v1/namespaces/ns/pods/p", "", rest.ContentTypeJSON},
		{"update status", func(ctx context.Context, s *Set) error {
			_, err := s.Pods.Namespace("ns").UpdateStatus(ctx, pod, meta.WriteOptions{})
			return err
		}, "PUT", "/api/v1/namespaces/ns/pods/p/status", "", rest.ContentTypeJSON},
		{"patch", func(ctx context.Context, s *Set) error {
			_, err := s.Deployments.Namespace("ns").Patch(ctx, "d", rest.MergePatchType, []byte(`{}`), meta.WriteOptions{FieldValidation: "Strict"})
			return err
		}, "PATCH", "/apis/apps/v1/namespaces/ns/deployments/d", "fieldValidation=Strict", string(rest.MergePatchType)},
		{"patch status", func(ctx context.Context, s *Set) error {
			_, err := s.Nodes.Patch(ctx, "n", rest.StrategicMergePatchType, []byte(`{}`), meta.WriteOptions{}, "status")
			return err
		}, "PATCH", "/api/v1/nodes/n/status", "", string(rest.StrategicMergePatchType)},
		{"list all namespaces", func(ctx context.Context, s *Set) error {
			_, err := s.Pods.List(ctx, meta.ListOptions{LabelSelector: "a=b", Limit: 2, Continue: "tok"})
			return err
		}, "GET", "/api/v1/pods", "continue=tok&labelSelector=a%3Db&limit=2", ""},
		{"list cluster-scoped", func(ctx context.Context, s *Set) error {
			_, err := s.Namespaces.List(ctx, meta.ListOptions{FieldSelector: "metadata.name=x", Watch: true})
			return err
		}, "GET", "/api/v1/namespaces", "fieldSelector=metadata.name%3Dx", ""},
		{"delete", func(ctx context.Context, s *Set) error {
			return s.CronJobsV1beta1.Namespace("ns").Delete(ctx, "c", nil)
		}, "DELETE", "/apis/batch/v1beta1/namespaces/ns/cronjobs/c", "", ""},
		{"delete with options", func(ctx context.Context, s *Set) error {
			grace := int64(0)
			return s.Leases.Namespace("ns").Delete(ctx, "l", &meta.DeleteOptions{GracePeriodSeconds: &grace})
		}, "DELETE", "/apis/coordination.platform.io/v1/namespaces/ns/leases/l", "", rest.ContentTypeJSON},
		{"delete collection", func(ctx context.Context, s *Set) error {
			return s.ConfigMaps.Namespace("ns").DeleteCollection(ctx, nil, meta.ListOptions{LabelSelector: "x"})
		}, "DELETE", "/api/v1/namespaces/ns/configmaps", "labelSelector=x", ""},
		{"get scale", func(ctx context.Context, s *Set) error {
			_, err := s.StatefulSets.Namespace("ns").GetScale(ctx, "s", meta.GetOptions{})
			return err
		}, "GET", "/apis/apps/v1/namespaces/ns/statefulsets/s/scale", "", ""},
		{"update scale", func(ctx context.Context, s *Set) error {
			_, err := s.Deployments.Namespace("ns").UpdateScale(ctx, "d", &autoscalingv1.Scale{}, meta.WriteOptions{})
			return err
		}, "PUT", "/apis/apps/v1/namespaces/ns/deployments/d/scale", "", rest.ContentTypeJSON},
		{"bind", func(ctx context.Context, s *Set) error {
			return s.Pods.Namespace("ns").Bind(ctx, &corev1.Binding{ObjectMeta: meta.ObjectMeta{Name: "p"}, Target: corev1.ObjectReference{Name: "n"}}, meta.WriteOptions{})
		}, "POST", "/api/v1/namespaces/ns/pods/p/binding", "", rest.ContentTypeJSON},
	}
}

func TestPaths(t *testing.T) {
	for _, tt := range pathTests() {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeServer(t, replyJSON(map[string]any{}))
			if err := tt.call(t.Context(), NewSet(f.restClient(t, rest.ContentTypeJSON))); err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			got := reqs[0]
			if got.Method != tt.method || got.Path != tt.path || got.Query != tt.qry || got.ContentType != tt.contentType {
				t.Errorf("sent %s %s ?%s (%s), want %s %s ?%s (%s)", got.Method, got.Path, got.Query, got.ContentType,
					tt.method, tt.path, tt.qry, tt.contentType)
			}
		})
	}
}

func TestCallsFailBeforeSending(t *testing.T) {
	tests := []struct {
		name string
		call func(ctx context.Context, s *Set) error
		want string
	}{
		{"namespaced create without namespace", func(ctx context.Context, s *Set) error {
			_, err := s.Pods.Create(ctx, &corev1.Pod{}, meta.WriteOptions{})
			return err
		}, "namespaced"},
		{"namespaced get without namespace", func(ctx context.Context, s *Set) error {
			_, err := s.ConfigMaps.Get(ctx, "c", meta.GetOptions{})
			return err
		}, "namespaced"},
		{"namespaced delete collection without namespace", func(ctx context.Context, s *Set) error {
			return s.ConfigMaps.DeleteCollection(ctx, nil, meta.ListOptions{})
		}, "namespaced"},
		{"cluster-scoped with namespace", func(ctx context.Context, s *Set) error {
			_, err := s.Nodes.Namespace("ns").List(ctx, meta.ListOptions{})
			return err
		}, "not namespaced"},
		{"cluster-scoped watch with namespace", func(ctx context.Context, s *Set) error {
			_, err := s.Namespaces.Namespace("ns").Watch(ctx, meta.ListOptions{})
			return err
		}, "not namespaced"},
		{"scale of a resource without one", func(ctx context.Context, s *Set) error {
			_, err := s.DaemonSets.Namespace("ns").GetScale(ctx, "d", meta.GetOptions{})
			return err
		}, "no scale subresource"},
		{"binding of a deployment", func(ctx context.Context, s *Set) error {
			return s.Deployments.Namespace("ns").Bind(ctx, &corev1.Binding{ObjectMeta: meta.ObjectMeta{Name: "d"}}, meta.WriteOptions{})
		}, "no binding subresource"},
		{"status of a config map", func(ctx context.Context, s *Set) error {
			_, err := s.ConfigMaps.Namespace("ns").UpdateStatus(ctx, &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: "c"}}, meta.WriteOptions{})
			return err
		}, "no status subresource"},
		{"nil object", func(ctx context.Context, s *Set) error {
			_, err := s.Pods.Namespace("ns").Update(ctx, nil, meta.WriteOptions{})
			return err
		}, "nil"},
		{"nil scale", func(ctx context.Context, s *Set) error {
			_, err := s.Deployments.Namespace("ns").UpdateScale(ctx, "d", nil, meta.WriteOptions{})
			return err
		}, "nil"},
		{"empty name", func(ctx context.Context, s *Set) error {
			_, err := s.Pods.Namespace("ns").Get(ctx, "", meta.GetOptions{})
			return err
		}, "name may not be empty"},
		{"two subresources", func(ctx context.Context, s *Set) error {
			_, err := s.Pods.Namespace("ns").Patch(ctx, "p", rest.MergePatchType, nil, meta.WriteOptions{}, "status", "status")
			return err
		}, "at most one subresource"},
		{"patch of the scale subresource", func(ctx context.Context, s *Set) error {
			_, err := s.Deployments.Namespace("ns").Patch(ctx, "d", rest.MergePatchType, []byte(`{}`), meta.WriteOptions{}, "scale")
			return err
		}, "does not answer with a Deployment"},
		{"no rest client", func(ctx context.Context, _ *Set) error {
			_, err := NewSet(nil).Pods.Namespace("ns").Get(ctx, "p", meta.GetOptions{})
			return err
		}, "no rest.Client"},
		{"no patch type", func(ctx context.Context, s *Set) error {
			_, err := s.Pods.Namespace("ns").Patch(ctx, "p", "", nil, meta.WriteOptions{})
			return err
		}, "no patch type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeServer(t, replyJSON(map[string]any{}))
			err := tt.call(t.Context(), NewSet(f.restClient(t, "")))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "client: ") {
				t.Errorf("error %v, want one with %q", err, tt.want)
			}
			if n := len(f.requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

func TestCreateEncodings(t *testing.T) {
	stored := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", Namespace: "ns", ResourceVersion: "5"}}
	tests := []struct {
		name        string
		contentType string
		reply       http.HandlerFunc
	}{
		{"protobuf", "", replyProto("v1", "Pod", stored)},
		{"json", rest.ContentTypeJSON, replyJSON(&corev1.Pod{TypeMeta: meta.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: stored.ObjectMeta})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeServer(t, tt.reply)
			c := New[corev1.Pod](f.restClient(t, tt.contentType), mustResource(t, "", "v1", "pods")).Namespace("ns")
			in := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "p"}}
			out, err := c.Create(t.Context(), in, meta.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if in.Kind != "" || in.APIVersion != "" {
				t.Errorf("the caller's object was changed: %+v", in.TypeMeta)
			}
			if out.ResourceVersion != "5" || out.Kind != "Pod" || out.APIVersion != "v1" {
				t.Errorf("created %+v %+v", out.TypeMeta, out.ObjectMeta)
			}
			sent := decodeBody(t, f.requests()[0])
			if sent.Kind != "Pod" || sent.APIVersion != "v1" || sent.Name != "p" {
				t.Errorf("sent %+v %+v", sent.TypeMeta, sent.ObjectMeta)
			}
		})
	}
}

// decodeBody decodes a pod sent in JSON or protobuf.
func decodeBody(t *testing.T, r seen) corev1.Pod {
	t.Helper()
	var p corev1.Pod
	switch r.ContentType {
	case protobuf.MediaType:
		apiVersion, kind, err := protobuf.DecodeInto(r.Body, &p)
		if err != nil {
			t.Fatal(err)
		}
		p.APIVersion, p.Kind = apiVersion, kind
	case rest.ContentTypeJSON:
		if err := json.Unmarshal(r.Body, &p); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("body of type %q", r.ContentType)
	}
	return p
}

func mustResource(t *testing.T, group, version, name string) Resource {
	t.Helper()
	r, ok := ResourceFor(meta.GroupVersionResource{Group: group, Version: version, Resource: name})
	if !ok {
		t.Fatalf("no resource %s/%s %s", group, version, name)
	}
	return r
}

func TestListEncodings(t *testing.T) {
	remaining := int64(3)
	want := &corev1.PodList{
		TypeMeta: meta.TypeMeta{Kind: "PodList", APIVersion: "v1"},
		ListMeta: meta.ListMeta{ResourceVersion: "9", Continue: "next", RemainingItemCount: &remaining},
		Items: []corev1.Pod{
			{ObjectMeta: meta.ObjectMeta{Name: "a", Labels: map[string]string{"x": "y"}}, Spec: corev1.PodSpec{NodeName: "n"}},
			{ObjectMeta: meta.ObjectMeta{Name: "b"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}},
		},
	}
	for _, tt := range []struct {
		name  string
		reply http.HandlerFunc
	}{
		{"protobuf", replyProto("v1", "PodList", want)},
		{"json", replyJSON(want)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeServer(t, tt.reply)
			c := New[corev1.Pod](f.restClient(t, ""), mustResource(t, "", "v1", "pods"))
			got, err := c.List(t.Context(), meta.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.TypeMeta, got.TypeMeta); diff != "" {
				t.Errorf("type meta (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want.ListMeta, got.ListMeta); diff != "" {
				t.Errorf("list meta (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want.Items, got.Items); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
		})
	}
}

func TestServerErrors(t *testing.T) {
	notFound := apierrors.NewNotFound(meta.GroupResource{Resource: "pods"}, "p")
	f := newFakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/garbled") {
			w.Header().Set("Content-Type", protobuf.MediaType)
			_, _ = w.Write([]byte("not an envelope"))
			return
		}
		st := notFound.Status()
		w.Header().Set("Content-Type", rest.ContentTypeJSON)
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(st)
	})
	pods := NewSet(f.restClient(t, "")).Pods.Namespace("ns")
	_, err := pods.Get(t.Context(), "p", meta.GetOptions{})
	if se, ok := err.(*apierrors.StatusError); !ok || !apierrors.IsNotFound(err) || se.Error() != notFound.Error() {
		t.Errorf("get of a missing pod: %#v, want the server's StatusError", err)
	}
	_, err = pods.Get(t.Context(), "garbled", meta.GetOptions{})
	if err == nil || !errors.Is(err, protobuf.ErrNoPrefix) || !strings.HasPrefix(err.Error(), `client: get pods "garbled" in namespace "ns": `) {
		t.Errorf("undecodable response: %v", err)
	}
}

func TestSet(t *testing.T) {
	f := newFakeServer(t, replyJSON(map[string]any{}))
	s := NewSet(f.restClient(t, ""))
	clients := []interface{ Resource() Resource }{
		s.Namespaces, s.Pods, s.Nodes, s.Services, s.Endpoints, s.ConfigMaps, s.Secrets, s.Events, s.ServiceAccounts,
		s.LimitRanges, s.ResourceQuotas,
		s.Deployments, s.ReplicaSets, s.DaemonSets, s.StatefulSets, s.ControllerRevisions,
		s.Jobs, s.CronJobs, s.CronJobsV1beta1,
		s.HorizontalPodAutoscalers, s.HorizontalPodAutoscalersV1, s.Leases,
	}
	rows := Resources()
	if len(rows) != len(clients) {
		t.Fatalf("%d resources, %d clients", len(rows), len(clients))
	}
	gvrs := map[meta.GroupVersionResource]bool{}
	for i, c := range clients {
		if diff := cmp.Diff(rows[i], c.Resource()); diff != "" {
			t.Errorf("client %d (-table +client):\n%s", i, diff)
		}
		gvr := rows[i].GroupVersionResource()
		if gvrs[gvr] {
			t.Errorf("%v listed twice", gvr)
		}
		gvrs[gvr] = true
	}
}

func TestResourceLookups(t *testing.T) {
	tests := []struct {
		gvk      meta.GroupVersionKind
		resource string
		found    bool
	}{
		{meta.GroupVersionKind{Version: "v1", Kind: "Pod"}, "pods", true},
		{meta.GroupVersionKind{Group: "batch", Version: "v1beta1", Kind: "CronJob"}, "cronjobs", true},
		{appsv1.Kind("Deployment"), "deployments", true},
		{meta.GroupVersionKind{Group: "coordination.platform.io", Version: "v1", Kind: "Lease"}, "leases", true},
		{meta.GroupVersionKind{Group: "apps", Version: "v1beta2", Kind: "Deployment"}, "", false},
	}
	for _, tt := range tests {
		r, ok := ResourceForKind(tt.gvk)
		if ok != tt.found || r.Name != tt.resource {
			t.Errorf("ResourceForKind(%v) = %q, %v", tt.gvk, r.Name, ok)
		}
		if !ok {
			continue
		}
		back, ok := ResourceFor(r.GroupVersionResource())
		if !ok || back.GroupVersionKind() != tt.gvk || back.ListKind() != tt.gvk.Kind+"List" {
			t.Errorf("ResourceFor(%v) = %+v, %v", r.GroupVersionResource(), back, ok)
		}
	}
	r := mustResource(t, "apps", "v1", "deployments")
	if !r.Has(SubresourceScale) || r.Has(SubresourceBinding) || r.APIVersion() != "apps/v1" || r.GroupResource().String() != "deployments.apps" {
		t.Errorf("deployments: %+v", r)
	}
}

func TestNewCopiesSubresources(t *testing.T) {
	f := newFakeServer(t, replyJSON(map[string]any{}))
	r := Resource{Version: "v1", Name: "pods", Kind: "Pod", Namespaced: true, Subresources: []string{"status"}}
	c := New[corev1.Pod](f.restClient(t, ""), r)
	r.Subresources[0] = "scale"
	if !c.Resource().Has("status") {
		t.Errorf("the client shares the caller's subresource slice")
	}
}
