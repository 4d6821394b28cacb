package serviceaccount

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	authnv1 "platform.io/client/api/authentication/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// objects serves one pod and one secret; the real stores are exercised by
// test/integration/serviceaccount.
type objects struct{}

func (objects) ServiceAccount(context.Context, string, string) (*corev1.ServiceAccount, error) {
	return nil, errors.New("not used")
}

func (objects) Pod(_ context.Context, ns, name string) (*corev1.Pod, error) {
	if ns != "ns" || name != "web" {
		return nil, apierrors.NewNotFound(meta.GroupResource{Resource: "pods"}, name)
	}
	return &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, UID: "pod-uid"}, Spec: corev1.PodSpec{ServiceAccountName: "robot"}}, nil
}

func (objects) Secret(_ context.Context, ns, name string) (*corev1.Secret, error) {
	if ns != "ns" || name != "cred" {
		return nil, apierrors.NewNotFound(meta.GroupResource{Resource: "secrets"}, name)
	}
	return &corev1.Secret{ObjectMeta: meta.ObjectMeta{Name: name, UID: "sec-uid"}}, nil
}

func codeOf(err error) int32 {
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		return se.ErrStatus.Code
	}
	return 0
}

func TestBound(t *testing.T) {
	cases := []struct {
		name     string
		sa       string
		ref      authnv1.BoundObjectReference
		code     int32
		pod, sec string
	}{
		{name: "pod", sa: "robot", ref: authnv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: "web"}, pod: "pod-uid"},
		{name: "pod with its uid", sa: "robot", ref: authnv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: "web", UID: "pod-uid"}, pod: "pod-uid"},
		{name: "secret", sa: "robot", ref: authnv1.BoundObjectReference{Kind: "Secret", APIVersion: "v1", Name: "cred", UID: "sec-uid"}, sec: "sec-uid"},
		{name: "pod missing", sa: "robot", ref: authnv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: "gone"}, code: 404},
		{name: "secret missing", sa: "robot", ref: authnv1.BoundObjectReference{Kind: "Secret", APIVersion: "v1", Name: "gone"}, code: 404},
		{name: "pod recreated", sa: "robot", ref: authnv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: "web", UID: "old"}, code: 409},
		{name: "secret recreated", sa: "robot", ref: authnv1.BoundObjectReference{Kind: "Secret", APIVersion: "v1", Name: "cred", UID: "old"}, code: 409},
		{name: "pod of another account", sa: "other", ref: authnv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: "web"}, code: 400},
		{name: "other kind", sa: "robot", ref: authnv1.BoundObjectReference{Kind: "Node", APIVersion: "v1", Name: "n"}, code: 400},
		{name: "other group", sa: "robot", ref: authnv1.BoundObjectReference{Kind: "Pod", APIVersion: "apps/v1", Name: "web"}, code: 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pod, sec, err := bound(context.Background(), objects{}, "ns", c.sa, &c.ref)
			if got := codeOf(err); got != c.code || (c.code != 0) != (err != nil) {
				t.Fatalf("err %v (code %d), want code %d", err, got, c.code)
			}
			if (pod != nil && pod.UID != c.pod) || (pod == nil) != (c.pod == "") || (sec != nil && sec.UID != c.sec) || (sec == nil) != (c.sec == "") {
				t.Fatalf("pod %+v secret %+v", pod, sec)
			}
		})
	}
}

func TestDecodeTokenRequest(t *testing.T) {
	cases := []struct {
		name, body string
		code       int32
		field      string
	}{
		{name: "empty", body: `{}`},
		{name: "full", body: `{"apiVersion":"authentication.platform.io/v1","kind":"TokenRequest","metadata":{"name":"robot","namespace":"ns"},"spec":{"audiences":["a"]}}`},
		{name: "upstream group", body: `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest"}`},
		{name: "other group", body: `{"apiVersion":"authentication.example.com/v1"}`, code: 400},
		{name: "other kind", body: `{"kind":"TokenReview"}`, code: 400},
		{name: "other name", body: `{"metadata":{"name":"x"}}`, code: 422, field: "metadata.name"},
		{name: "other namespace", body: `{"metadata":{"namespace":"x"}}`, code: 422, field: "metadata.namespace"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			decode := func(v any) error { return json.Unmarshal([]byte(c.body), v) }
			_, err := decodeTokenRequest(decode, "ns", "robot")
			if got := codeOf(err); got != c.code {
				t.Fatalf("err %v, want code %d", err, c.code)
			}
			if c.field != "" {
				var se *apierrors.StatusError
				errors.As(err, &se)
				if causes := se.ErrStatus.Details.Causes; len(causes) != 1 || causes[0].Field != c.field {
					t.Fatalf("causes %+v, want %s", causes, c.field)
				}
			}
		})
	}
}

func TestValidateTokenRequest(t *testing.T) {
	cases := []struct {
		secs  int64
		valid bool
	}{
		{599, false}, {600, true}, {3600, true}, {1 << 32, true}, {1<<32 + 1, false}, {-1, false},
	}
	for _, c := range cases {
		req := &authnv1.TokenRequest{Spec: authnv1.TokenRequestSpec{ExpirationSeconds: &c.secs}}
		errs := validateTokenRequest(req)
		if (len(errs) == 0) != c.valid || (!c.valid && errs[0].Field != "spec.expirationSeconds") {
			t.Errorf("%d seconds: %v", c.secs, errs)
		}
	}
}
