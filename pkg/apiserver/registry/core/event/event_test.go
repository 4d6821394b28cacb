package event

import (
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestResource(t *testing.T) {
	r := Resource(func() int64 { return 3600 })
	if r.Name != "events" || r.Singular != "event" || r.Kind != "Event" || r.Group != "" || r.Version != "v1" {
		t.Fatalf("bad names: %+v", r)
	}
	if !r.Namespaced || r.HasStatus || !r.AllowCreateOnUpdate || r.Strategy == nil {
		t.Fatalf("bad flags: %+v", r)
	}
	if len(r.ShortNames) != 1 || r.ShortNames[0] != "ev" {
		t.Fatalf("short names = %v", r.ShortNames)
	}
	if r.TTLSeconds == nil || r.TTLSeconds() != 3600 {
		t.Fatal("TTLSeconds does not return the server's TTL")
	}
	if _, ok := r.New().(*corev1.Event); !ok {
		t.Fatalf("New returned %T", r.New())
	}
	if len(r.NameFunc("node-1.17a2b3c4d5e6f7a8")) != 0 || len(r.NameFunc("a/b")) == 0 {
		t.Fatal("NameFunc is not the path-segment check")
	}
}

func TestSelectableFields(t *testing.T) {
	e := &corev1.Event{
		ObjectMeta: meta.ObjectMeta{Name: "e", Namespace: "ns"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "p", UID: "u",
			APIVersion: "v1", ResourceVersion: "7", FieldPath: "spec.containers{c}"},
		Reason: "Started", Type: "Normal", ReportingController: "kubelet",
	}
	want := map[string]string{
		"metadata.name": "e", "metadata.namespace": "ns",
		"involvedObject.kind": "Pod", "involvedObject.namespace": "ns", "involvedObject.name": "p",
		"involvedObject.uid": "u", "involvedObject.apiVersion": "v1", "involvedObject.resourceVersion": "7",
		"involvedObject.fieldPath": "spec.containers{c}", "reason": "Started", "type": "Normal",
		"reportingComponent": "kubelet", "source": "kubelet",
	}
	got := Resource(nil).Fields(e)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("fields = %v", got)
	}
	e.Source.Component = "scheduler"
	if got := Resource(nil).Fields(e)["source"]; got != "scheduler" {
		t.Errorf("source = %q, want source.component", got)
	}
}

func TestValidate(t *testing.T) {
	now := meta.NowMicro()
	modern := func(e *corev1.Event) {
		e.EventTime = now
		e.ReportingController, e.ReportingInstance, e.Action, e.Reason = "example.com/ctl", "ctl-1", "Sync", "Synced"
	}
	cases := []struct {
		name   string
		ns     string
		mutate func(*corev1.Event)
		typ    field.Type
		field  string
	}{
		{"legacy same namespace", "ns", func(e *corev1.Event) { e.InvolvedObject.Namespace = "ns" }, "", ""},
		{"legacy other namespace", "ns", func(e *corev1.Event) { e.InvolvedObject.Namespace = "other" }, field.TypeInvalid, "involvedObject.namespace"},
		{"legacy cluster object in default", "default", func(*corev1.Event) {}, "", ""},
		{"legacy cluster object elsewhere", "ns", func(*corev1.Event) {}, field.TypeInvalid, "involvedObject.namespace"},
		{"legacy long message", "ns", func(e *corev1.Event) {
			e.InvolvedObject.Namespace = "ns"
			e.Message = strings.Repeat("m", 2000)
		}, "", ""},
		{"type warning", "default", func(e *corev1.Event) { e.Type = "Warning" }, "", ""},
		{"bad type", "default", func(e *corev1.Event) { e.Type = "Error" }, field.TypeNotSupported, "type"},
		{"negative count", "default", func(e *corev1.Event) { e.Count = -1 }, field.TypeInvalid, "count"},
		{"zero count", "default", func(e *corev1.Event) { e.Count = 0 }, "", ""},
		{"modern valid", "ns", func(e *corev1.Event) { modern(e); e.InvolvedObject.Namespace = "ns" }, "", ""},
		{"modern cluster object in system", corev1.NamespaceSystem, modern, "", ""},
		{"modern cluster object elsewhere", "ns", modern, field.TypeInvalid, "involvedObject.namespace"},
		{"modern no reporter", "default", func(e *corev1.Event) { modern(e); e.ReportingController = "" }, field.TypeRequired, "reportingComponent"},
		{"modern bad reporter", "default", func(e *corev1.Event) { modern(e); e.ReportingController = "a b" }, field.TypeInvalid, "reportingComponent"},
		{"modern no instance", "default", func(e *corev1.Event) { modern(e); e.ReportingInstance = "" }, field.TypeRequired, "reportingInstance"},
		{"modern no action", "default", func(e *corev1.Event) { modern(e); e.Action = "" }, field.TypeRequired, "action"},
		{"modern no reason", "default", func(e *corev1.Event) { modern(e); e.Reason = "" }, field.TypeRequired, "reason"},
		{"modern long reason", "default", func(e *corev1.Event) { modern(e); e.Reason = strings.Repeat("r", 129) }, field.TypeInvalid, "reason"},
		{"modern long message", "default", func(e *corev1.Event) { modern(e); e.Message = strings.Repeat("m", 1025) }, field.TypeInvalid, "message"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &corev1.Event{ObjectMeta: meta.ObjectMeta{Name: "e", Namespace: c.ns}}
			c.mutate(e)
			if msg := corevalidation.Expect(validate(e), c.typ, c.field); msg != "" {
				t.Error(msg)
			}
			if msg := corevalidation.Expect(Resource(nil).Strategy.ValidateUpdate(t.Context(), e, e), c.typ, c.field); msg != "" {
				t.Error("update:", msg)
			}
		})
	}
}
