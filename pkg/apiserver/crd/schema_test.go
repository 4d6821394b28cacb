package crd

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	apiextv1 "platform.io/client/api/apiextensions/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/instance"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/storage/etcd3"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// slowRules is a definition whose rule, over a list of up to 200
// integers, takes 40,000 steps: cheap enough to pass the cost limits,
// long enough to be stopped midway.
const slowRules = `{"metadata":{"name":"loops.example.com"},
	"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"loops","kind":"Loop"},
	"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
		"spec":{"type":"object","properties":{"items":{"type":"array","maxItems":200,"items":{"type":"integer"},
			"x-kubernetes-validations":[{"rule":"self.all(x, self.all(y, x + y >= 0))"}]}}}}}}}]},
	"status":{"acceptedNames":{"plural":"loops","singular":"loop","kind":"Loop","listKind":"LoopList"}}}`

// TestValidateWithinRequest: a custom object's rules run in the request's
// context: past its deadline they stop and say so, on create and update;
// with time left they run to their end.
func TestValidateWithinRequest(t *testing.T) {
	var crd apiextv1.CustomResourceDefinition
	if err := json.Unmarshal([]byte(slowRules), &crd); err != nil {
		t.Fatal(err)
	}
	rows, err := BuildRows(&crd, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	items := make([]any, 200)
	for i := range items {
		items[i] = int64(i)
	}
	obj := &instance.Object{Content: map[string]any{"spec": map[string]any{"items": items}}}
	old := &instance.Object{Content: map[string]any{"spec": map[string]any{}}}
	expired, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()
	st := rows.Storage.Strategy
	cases := []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"time left: the rule runs", t.Context(), ""},
		{"deadline passed: the rule stops", expired,
			`spec.items: Invalid value: "array": validation interrupted: context deadline exceeded; no further validation rules were run`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for op, errs := range map[string][]string{
				"create": errStrings(st.Validate(c.ctx, obj)),
				"update": errStrings(st.ValidateUpdate(c.ctx, obj, old)),
			} {
				if got := strings.Join(errs, "\n"); got != c.want {
					t.Errorf("%s: got %q, want %q", op, got, c.want)
				}
			}
		})
	}
}

// TestCreatePastDeadline: a create whose rules were stopped by the
// request's deadline answers 504 Timeout, as upstream answers a request
// that outlives its deadline, with the interrupted rule as its cause;
// nothing is stored.
func TestCreatePastDeadline(t *testing.T) {
	var crd apiextv1.CustomResourceDefinition
	if err := json.Unmarshal([]byte(slowRules), &crd); err != nil {
		t.Fatal(err)
	}
	rows, err := BuildRows(&crd, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, prefix := etcdtest.Client(t)
	store := registry.NewStore(rows.Storage, registry.Config{Storage: etcd3.New(zap.NewNop(), c, prometheus.NewRegistry()), Prefix: prefix})
	items := make([]any, 200)
	for i := range items {
		items[i] = int64(i)
	}
	obj := &instance.Object{ObjectMeta: meta.ObjectMeta{Name: "a", Namespace: "ns"},
		Content: map[string]any{"spec": map[string]any{"items": items}}}
	expired, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()
	_, err = store.Create(expired, obj, false)
	var se *apierrors.StatusError
	if !errors.As(err, &se) || se.ErrStatus.Code != http.StatusGatewayTimeout || se.ErrStatus.Reason != meta.StatusReasonTimeout ||
		se.ErrStatus.Details == nil || len(se.ErrStatus.Details.Causes) != 1 ||
		!strings.Contains(se.ErrStatus.Details.Causes[0].Message, "validation interrupted") {
		t.Fatalf("create past its deadline: %#v, want a 504 Timeout whose cause is the interrupted rule", err)
	}
	if _, err := store.Get(t.Context(), "ns", "a"); !apierrors.IsNotFound(err) {
		t.Errorf("get after the refused create: %v, want NotFound", err)
	}
}

func errStrings[E interface{ Error() string }](errs []E) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}
