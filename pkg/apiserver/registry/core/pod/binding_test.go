package pod

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

func statusCode(err error) int32 {
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		return se.Status().Code
	}
	return 0
}

func TestDecodeBinding(t *testing.T) {
	cases := []struct {
		name string
		body string
		code int32 // 0: accepted
	}{
		{"full", `{"kind":"Binding","apiVersion":"v1","metadata":{"name":"web","namespace":"default"},"target":{"kind":"Node","name":"n1"}}`, 0},
		{"name from URL", `{"target":{"name":"n1"}}`, 0},
		{"name mismatch", `{"metadata":{"name":"other"},"target":{"name":"n1"}}`, http.StatusBadRequest},
		{"namespace mismatch", `{"metadata":{"namespace":"kube"},"target":{"name":"n1"}}`, http.StatusBadRequest},
		{"not JSON", `{`, http.StatusBadRequest},
		{"wrong kind", `{"kind":"Pod","target":{"name":"n1"}}`, http.StatusBadRequest},
		{"target name missing", `{"target":{"kind":"Node"}}`, http.StatusUnprocessableEntity},
		{"target kind not Node", `{"target":{"kind":"Pod","name":"x"}}`, http.StatusUnprocessableEntity},
	}
	for _, tc := range cases {
		b, err := decodeBinding(jsonDecoder(tc.body), "default", "web")
		if got := statusCode(err); got != tc.code || (tc.code != 0) != (err != nil) {
			t.Errorf("%s: code %d (err %v), want %d", tc.name, got, err, tc.code)
			continue
		}
		if err == nil && (b.Name != "web" || b.Namespace != "default" || b.Target.Name != "n1") {
			t.Errorf("%s: decoded %+v", tc.name, b)
		}
	}
}

func TestAssign(t *testing.T) {
	binding := func() *corev1.Binding {
		b := &corev1.Binding{Target: corev1.ObjectReference{Kind: "Node", Name: "n1"}}
		b.Annotations = map[string]string{"example.com/bound-by": "scheduler"}
		return b
	}
	pod := newPod()
	pod.UID, pod.ResourceVersion = "u1", "7"
	if err := assign(pod, binding()); err != nil {
		t.Fatalf("assign: %v", err)
	}
	if pod.Spec.NodeName != "n1" || pod.Annotations["example.com/bound-by"] != "scheduler" {
		t.Errorf("after assign: node %q annotations %v", pod.Spec.NodeName, pod.Annotations)
	}

	err := assign(pod, binding())
	if statusCode(err) != http.StatusConflict {
		t.Errorf("second binding: %v", err)
	}

	deleting := newPod()
	now := meta.Now()
	deleting.DeletionTimestamp = &now
	if err := assign(deleting, binding()); statusCode(err) != http.StatusConflict {
		t.Errorf("pod being deleted: %v", err)
	}

	pre := newPod()
	pre.UID, pre.ResourceVersion = "u1", "7"
	b := binding()
	b.UID = "u2"
	if err := assign(pre, b); statusCode(err) != http.StatusConflict {
		t.Errorf("uid precondition: %v", err)
	}
	b = binding()
	b.ResourceVersion = "6"
	if err := assign(pre, b); statusCode(err) != http.StatusConflict {
		t.Errorf("resourceVersion precondition: %v", err)
	}
	b.UID, b.ResourceVersion = "u1", "7"
	if err := assign(pre, b); err != nil || pre.Spec.NodeName != "n1" {
		t.Errorf("matching preconditions: %v", err)
	}
}

// A binding goes through a main update: the transformed pod must pass the
// update rules, and prepareForUpdate records the PodScheduled condition.
func TestBindingPassesUpdateRules(t *testing.T) {
	old := newPod()
	prepareForCreate(old)
	pod := newPod()
	pod.Status = old.Status
	if err := assign(pod, &corev1.Binding{Target: corev1.ObjectReference{Name: "n1"}}); err != nil {
		t.Fatal(err)
	}
	prepareForUpdate(pod, old)
	if errs := validateUpdate(pod, old); len(errs) > 0 {
		t.Fatalf("binding rejected by update rules: %v", errs)
	}
	var cond *corev1.PodCondition
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == corev1.PodScheduled {
			cond = &pod.Status.Conditions[i]
		}
	}
	if cond == nil || cond.Status != corev1.ConditionTrue || cond.LastTransitionTime.IsZero() {
		t.Errorf("PodScheduled condition = %+v", cond)
	}

	// Moving a bound pod to another node is not allowed.
	moved := newPod()
	moved.Spec.NodeName = "n2"
	if errs := validateUpdate(moved, pod); !hasError(errs, "spec", "FieldValueForbidden") {
		t.Errorf("node change: %v", errs)
	}
}

func TestSuccessStatus(t *testing.T) {
	b, err := json.Marshal(registry.NewSuccess(http.StatusCreated, ""))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["kind"] != "Status" || got["apiVersion"] != "v1" || got["status"] != "Success" || got["code"] != float64(201) {
		t.Errorf("status body %s", b)
	}
	if _, ok := got["objectMeta"]; ok {
		t.Errorf("object meta leaked into %s", b)
	}
}

// jsonDecoder decodes body as the server does for a JSON request.
func jsonDecoder(body string) registry.Decoder {
	return func(v any) error {
		if err := json.Unmarshal([]byte(body), v); err != nil {
			return apierrors.NewBadRequest(err.Error())
		}
		return nil
	}
}
