package priorityclass

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	schedulingv1 "platform.io/client/api/scheduling/v1"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func class(name string, value int32, globalDefault bool) *schedulingv1.PriorityClass {
	pc := &schedulingv1.PriorityClass{Value: value, GlobalDefault: globalDefault}
	pc.Name = name
	return pc
}

func policy(p corev1.PreemptionPolicy) *corev1.PreemptionPolicy { return &p }

func TestResource(t *testing.T) {
	r := Resource()
	if r.Group != "scheduling.platform.io" || r.Version != "v1" || r.Name != "priorityclasses" || r.Singular != "priorityclass" || r.Kind != "PriorityClass" {
		t.Errorf("names = %s/%s %s %s %s", r.Group, r.Version, r.Name, r.Singular, r.Kind)
	}
	if r.Namespaced || r.HasStatus || len(r.ShortNames) != 1 || r.ShortNames[0] != "pc" {
		t.Errorf("row = %+v", r)
	}
	if _, ok := r.New().(*schedulingv1.PriorityClass); !ok {
		t.Errorf("New() = %T", r.New())
	}
}

func TestDefault(t *testing.T) {
	r := Resource()
	pc := class("high", 1000, false)
	r.Strategy.Default(pc)
	if pc.PreemptionPolicy == nil || *pc.PreemptionPolicy != corev1.PreemptLowerPriority {
		t.Errorf("default preemptionPolicy = %v", pc.PreemptionPolicy)
	}
	never := class("low", 1, false)
	never.PreemptionPolicy = policy(corev1.PreemptNever)
	r.Strategy.Default(never)
	if *never.PreemptionPolicy != corev1.PreemptNever {
		t.Errorf("set preemptionPolicy overwritten: %v", *never.PreemptionPolicy)
	}
}

func TestValidate(t *testing.T) {
	r := Resource()
	bad := class("high", 1, false)
	bad.PreemptionPolicy = policy("Sometimes")
	tests := []struct {
		name string
		pc   *schedulingv1.PriorityClass
		// path and typ of the expected error; "" for a valid class.
		path string
		typ  field.Type
	}{
		{"user class", class("high", 1000, true), "", ""},
		{"highest user value", class("max", 1000000000, false), "", ""},
		{"negative value", class("neg", -2147483648, false), "", ""},
		{"above the user range", class("huge", 1000000001, false), "value", field.TypeForbidden},
		{"system-node-critical", class("system-node-critical", 2000001000, false), "", ""},
		{"system-cluster-critical", class("system-cluster-critical", 2000000000, false), "", ""},
		{"unknown system name", class("system-mine", 10, false), "metadata.name", field.TypeForbidden},
		{"system class with another value", class("system-cluster-critical", 10, false), "metadata.name", field.TypeForbidden},
		{"system class as global default", class("system-node-critical", 2000001000, true), "metadata.name", field.TypeForbidden},
		{"unknown preemption policy", bad, "preemptionPolicy", field.TypeNotSupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := r.Strategy.Validate(t.Context(), tt.pc)
			if tt.path == "" {
				if len(errs) != 0 {
					t.Errorf("valid class refused: %v", errs)
				}
				return
			}
			if len(errs) != 1 || errs[0].Field != tt.path || errs[0].Type != tt.typ {
				t.Errorf("errors %v, want one %s at %s", errs, tt.typ, tt.path)
			}
		})
	}
}

func TestValidateUpdate(t *testing.T) {
	r := Resource()
	old := class("high", 1000, false)
	old.PreemptionPolicy = policy(corev1.PreemptLowerPriority)
	changed := func(f func(pc *schedulingv1.PriorityClass)) *schedulingv1.PriorityClass {
		pc := *old
		pc.PreemptionPolicy = policy(*old.PreemptionPolicy)
		f(&pc)
		return &pc
	}
	tests := []struct {
		name string
		pc   *schedulingv1.PriorityClass
		path string
		typ  field.Type
	}{
		{"description and default may change", changed(func(pc *schedulingv1.PriorityClass) { pc.Description, pc.GlobalDefault = "x", true }), "", ""},
		{"value is immutable", changed(func(pc *schedulingv1.PriorityClass) { pc.Value = 1001 }), "value", field.TypeForbidden},
		{"preemption policy is immutable", changed(func(pc *schedulingv1.PriorityClass) { pc.PreemptionPolicy = policy(corev1.PreemptNever) }), "preemptionPolicy", field.TypeInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := r.Strategy.ValidateUpdate(t.Context(), tt.pc, old)
			if tt.path == "" {
				if len(errs) != 0 {
					t.Errorf("valid update refused: %v", errs)
				}
				return
			}
			if len(errs) != 1 || errs[0].Field != tt.path || errs[0].Type != tt.typ {
				t.Errorf("errors %v, want one %s at %s", errs, tt.typ, tt.path)
			}
		})
	}
	// A built-in class cannot be made the global default.
	sys := class("system-node-critical", 2000001000, false)
	if errs := r.Strategy.ValidateUpdate(t.Context(), class("system-node-critical", 2000001000, true), sys); len(errs) != 1 || errs[0].Field != "metadata.name" {
		t.Errorf("system class made global default: %v", errs)
	}
}

func TestTableRow(t *testing.T) {
	pc := class("high", 1000, true)
	pc.CreationTimestamp = meta.NewTime(time.Now().Add(-90 * time.Second))
	pc.PreemptionPolicy = policy(corev1.PreemptNever)
	got := tableColumns.Row(pc)
	want := []any{"high", int64(1000), true, "90s", "Never"}
	if len(got) != len(want) || len(tableColumns.Columns) != len(want) {
		t.Fatalf("cells %v, columns %d", got, len(tableColumns.Columns))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("cell %d (%s) = %v, want %v", i, tableColumns.Columns[i].Name, got[i], want[i])
		}
	}
}
