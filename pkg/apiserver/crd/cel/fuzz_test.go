package cel

import (
	"context"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/crd/structural"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// FuzzCompile compiles arbitrary rules and message expressions at the
// spec of the typical schema; Compile must never panic, and a rule it
// accepts must evaluate, on an update, without panicking and within its
// limits (small here, so a costly rule ends fast).
func FuzzCompile(f *testing.F) {
	for _, seed := range []struct{ rule, msg string }{
		{"self.replicas > 0", ""},
		{"self.minReplicas <= self.replicas", "'min ' + string(self.minReplicas)"},
		{"self == oldSelf", ""},
		{"self.containers.all(c, c.ports.all(p, p > 0))", ""},
		{"self.selector.exists(k, self.selector[k] == 'web')", ""},
		{"self.containers.map(c, c.name).isSorted()", ""},
		{"self.containers.all(x, self.containers.all(y, x.name != y.name || x == y))", "self.containers[0].image"},
		{"has(self.paused) && self.paused", ""},
		{"self.containers[0].image.find('[a-z]+') != ''", ""},
	} {
		f.Add(seed.rule, seed.msg)
	}
	base := schema(f, typical)
	obj := object(f, typicalObject)
	old := object(f, typicalObject)
	opts := Options{PerCallLimit: 10_000, RuntimeBudget: 50_000}
	f.Fuzz(func(t *testing.T, rule, msg string) {
		s := *base
		spec := *s.Properties["spec"]
		spec.Validations = []structural.ValidationRule{{Rule: rule, MessageExpression: msg}}
		s.Properties = map[string]*structural.Schema{"spec": &spec}
		v, errs := Compile(&s, root, opts)
		if len(errs) > 0 {
			if v != nil {
				t.Fatalf("a Validator with errors %v", errs)
			}
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		v.Validate(ctx, field.NewPath(""), obj, old)
		if ctx.Err() != nil {
			t.Fatalf("rule %q ran until the deadline despite its cost limit", rule)
		}
	})
}
