package fieldmanager_test

import (
	"testing"

	appsv1 "platform.io/client/api/apps/v1"
	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/fieldmanager"
	"platform.io/platform/pkg/apiserver/registry/apps/deployment"
)

// applyScale applies an autoscaling/v1 Scale to d through its scale
// subresource, as the endpoint does: the merged Scale's replicas are
// written to d.
func applyScale(fm *fieldmanager.FieldManager, d *appsv1.Deployment, config, manager string, force bool) (meta.Object, error) {
	sc := &autoscalingv1.Scale{TypeMeta: meta.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
		ObjectMeta: meta.ObjectMeta{Name: d.Name, Namespace: d.Namespace}}
	sc.Spec.Replicas = 1
	if d.Spec.Replicas != nil {
		sc.Spec.Replicas = *d.Spec.Replicas
	}
	out, err := fm.ApplyScale(d, sc, []byte(config), manager, force)
	if err != nil {
		return nil, err
	}
	r := out.(*autoscalingv1.Scale).Spec.Replicas
	d.Spec.Replicas = &r
	return d, nil
}

func replicated(n string) string {
	return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"ns"},"spec":{"replicas":` + n + `,"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"app","image":"app:1"}]}}}}`
}

func scaleTo(n string) string {
	return `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"d","namespace":"ns"},"spec":{"replicas":` + n + `}}`
}

func wantReplicas(n int32) func(*testing.T, meta.Object) {
	return func(t *testing.T, obj meta.Object) {
		t.Helper()
		if r := obj.(*appsv1.Deployment).Spec.Replicas; r == nil || *r != n {
			t.Fatalf("replicas = %v, want %d", r, n)
		}
	}
}

func TestScaleApply(t *testing.T) {
	r := deployment.Resource()
	aliceFields := []string{"f:spec.f:replicas", "f:spec.f:selector.f:matchLabels.f:app", "f:spec.f:template.f:metadata.f:labels.f:app",
		"f:spec.f:template.f:spec.f:containers.k:{\"name\":\"app\"}.f:image", "f:spec.f:template.f:spec.f:containers.k:{\"name\":\"app\"}.f:name"}
	aliceRest := aliceFields[1:]
	tests := []struct {
		name  string
		steps []step
	}{
		{"the scale applier owns the object's spec.replicas, shared at the same value", []step{
			{apply: replicated("2"), manager: "alice"},
			{scale: scaleTo("2"), manager: "hpa", want: wantReplicas(2),
				wantOwners: map[string][]string{"alice/Apply": aliceFields, "hpa/Apply/scale": {"f:spec.f:replicas"}}},
		}},
		{"another value conflicts with the object's owner of spec.replicas", []step{
			{apply: replicated("2"), manager: "alice"},
			{scale: scaleTo("3"), manager: "hpa", wantConflicts: []string{`.spec.replicas conflict with "alice"`}},
		}},
		{"an update's ownership of spec.replicas conflicts too, named with its version", []step{
			{update: replicated("2"), manager: "bob"},
			{scale: scaleTo("3"), manager: "hpa", wantConflicts: []string{`.spec.replicas conflict with "bob" using apps/v1`}},
		}},
		{"force takes spec.replicas from the object's owners", []step{
			{apply: replicated("2"), manager: "alice"},
			{scale: scaleTo("3"), manager: "hpa", force: true, want: wantReplicas(3),
				wantOwners: map[string][]string{"alice/Apply": aliceRest, "hpa/Apply/scale": {"f:spec.f:replicas"}}},
			{apply: replicated("2"), manager: "alice", wantConflicts: []string{`.spec.replicas conflict with "hpa" with subresource "scale"`}},
			{scale: scaleTo("4"), manager: "hpa", want: wantReplicas(4)},
		}},
		{"an owner through updates only loses its entry when forced", []step{
			{update: replicated("2"), manager: "bob"},
			{apply: replicated("2"), manager: "alice"},
			{scale: scaleTo("3"), manager: "hpa", force: true,
				wantOwners: map[string][]string{"bob/Update": append(aliceRest, `f:spec.f:template.f:spec.f:containers.k:{"name":"app"}.f:resources`), "alice/Apply": aliceRest, "hpa/Apply/scale": {"f:spec.f:replicas"}}},
		}},
		{"a sole owner dropping spec.replicas from its Scale sets it to 0", []step{
			{apply: replicated("2"), manager: "alice"},
			{scale: scaleTo("3"), manager: "hpa", force: true},
			{scale: `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"d"}}`, manager: "hpa", want: wantReplicas(0),
				wantOwners: map[string][]string{"alice/Apply": aliceRest}},
		}},
		{"status in the applied Scale is not owned", []step{
			{apply: replicated("2"), manager: "alice"},
			{scale: `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"d"},"spec":{"replicas":2},"status":{"replicas":9}}`, manager: "hpa",
				wantOwners: map[string][]string{"alice/Apply": aliceFields, "hpa/Apply/scale": {"f:spec.f:replicas"}}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { run(t, r, tt.steps) })
	}
}

func TestScaleApplyRejects(t *testing.T) {
	fm := newManager(t, deployment.Resource())
	d := &appsv1.Deployment{ObjectMeta: meta.ObjectMeta{Name: "d", Namespace: "ns"}}
	for _, config := range []string{
		replicated("2"), // a Deployment, not a Scale
		`{"apiVersion":"autoscaling/v2","kind":"Scale","metadata":{"name":"d"},"spec":{"replicas":2}}`,
		`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"d"},"spec":{"replicas":2,"paused":true}}`,
	} {
		if _, err := applyScale(fm, d, config, "hpa", false); err == nil {
			t.Errorf("applying %s to /scale: no error", config)
		}
	}
}
