package lease

import (
	"testing"

	coordinationv1 "platform.io/client/api/coordination/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func ptr[T any](v T) *T { return &v }

func TestResource(t *testing.T) {
	r := Resource()
	if r.Group != "coordination.platform.io" || r.Version != "v1" || r.Name != "leases" || r.Singular != "lease" || r.Kind != "Lease" {
		t.Errorf("names = %s/%s %s %s %s", r.Group, r.Version, r.Name, r.Singular, r.Kind)
	}
	if !r.Namespaced || r.HasStatus || !r.AllowCreateOnUpdate || r.RequireResourceVersionOnUpdate {
		t.Errorf("row = %+v", r)
	}
	if len(r.ShortNames)+len(r.Categories) != 0 {
		t.Errorf("shortNames=%v categories=%v", r.ShortNames, r.Categories)
	}
	if _, ok := r.New().(*coordinationv1.Lease); !ok {
		t.Errorf("New() = %T", r.New())
	}
}

func TestValidate(t *testing.T) {
	r := Resource()
	valid := &coordinationv1.Lease{
		ObjectMeta: meta.ObjectMeta{Name: "node-1", Namespace: "platform-node-lease"},
		Spec: coordinationv1.LeaseSpec{
			HolderIdentity: ptr("any identity, even with spaces/and slashes"), LeaseDurationSeconds: ptr[int32](40),
			LeaseTransitions: ptr[int32](0), AcquireTime: &meta.MicroTime{}, RenewTime: &meta.MicroTime{},
		},
	}
	if errs := r.Strategy.Validate(t.Context(), valid); len(errs) != 0 {
		t.Fatalf("valid lease rejected: %v", errs)
	}
	withStrategy := *valid
	withStrategy.Spec.Strategy = ptr(coordinationv1.OldestEmulationVersion)
	withStrategy.Spec.PreferredHolder = ptr("b")
	custom := *valid
	custom.Spec.Strategy = ptr[coordinationv1.CoordinatedLeaseStrategy]("example.com/mine")
	for _, l := range []*coordinationv1.Lease{&withStrategy, &custom, {}} {
		if errs := r.Strategy.Validate(t.Context(), l); len(errs) != 0 {
			t.Errorf("%+v rejected: %v", l.Spec, errs)
		}
	}
	for _, tc := range []struct {
		name string
		spec coordinationv1.LeaseSpec
		path string
		typ  field.Type
	}{
		{"zero duration", coordinationv1.LeaseSpec{LeaseDurationSeconds: ptr[int32](0)}, "spec.leaseDurationSeconds", field.TypeInvalid},
		{"negative duration", coordinationv1.LeaseSpec{LeaseDurationSeconds: ptr[int32](-5)}, "spec.leaseDurationSeconds", field.TypeInvalid},
		{"negative transitions", coordinationv1.LeaseSpec{LeaseTransitions: ptr[int32](-1)}, "spec.leaseTransitions", field.TypeInvalid},
		{"unknown strategy", coordinationv1.LeaseSpec{Strategy: ptr[coordinationv1.CoordinatedLeaseStrategy]("Newest")}, "spec.strategy", field.TypeNotSupported},
		{"bad custom strategy", coordinationv1.LeaseSpec{Strategy: ptr[coordinationv1.CoordinatedLeaseStrategy]("a/b/c")}, "spec.strategy", field.TypeInvalid},
		{"preferred holder without strategy", coordinationv1.LeaseSpec{PreferredHolder: ptr("x")}, "spec.preferredHolder", field.TypeForbidden},
	} {
		l := &coordinationv1.Lease{Spec: tc.spec}
		for _, errs := range []field.ErrorList{r.Strategy.Validate(t.Context(), l), r.Strategy.ValidateUpdate(t.Context(), l, valid)} {
			found := false
			for _, e := range errs {
				found = found || (e.Field == tc.path && e.Type == tc.typ)
			}
			if !found {
				t.Errorf("%s: errors %v, want %s at %s", tc.name, errs, tc.typ, tc.path)
			}
		}
	}
}
