package admission

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// step is a plugin that logs its calls and fails with err.
type step struct {
	name    string
	log     *[]string
	ops     []Operation
	err     error
	reinvok bool
}

func (s *step) Handles(op Operation) bool {
	for _, o := range s.ops {
		if o == op {
			return true
		}
	}
	return false
}

type mutating struct{ *step }

func (m mutating) Admit(_ context.Context, a *Attributes) error {
	entry := "admit " + m.name
	if a.IsReinvoke() {
		entry += " again"
	}
	*m.log = append(*m.log, entry)
	if m.reinvok {
		a.RequestReinvocation()
	}
	return m.err
}

type validating struct{ *step }

func (v validating) Validate(context.Context, *Attributes) error {
	*v.log = append(*v.log, "validate "+v.name)
	return v.err
}

type both struct{ *step }

func (b both) Admit(ctx context.Context, a *Attributes) error { return mutating(b).Admit(ctx, a) }
func (b both) Validate(ctx context.Context, a *Attributes) error {
	return validating(b).Validate(ctx, a)
}

func TestChain(t *testing.T) {
	all := []Operation{Create, Update, Delete}
	cases := []struct {
		name    string
		plugins func(log *[]string) []Named
		op      Operation
		want    []string
		code    int32
	}{
		{"mutating first, each in order", func(log *[]string) []Named {
			return []Named{
				{"A", validating{&step{name: "A", log: log, ops: all}}},
				{"B", both{&step{name: "B", log: log, ops: all}}},
				{"C", mutating{&step{name: "C", log: log, ops: all}}},
			}
		}, Create, []string{"admit B", "admit C", "validate A", "validate B"}, 0},
		{"operations a plugin does not handle are skipped", func(log *[]string) []Named {
			return []Named{
				{"A", both{&step{name: "A", log: log, ops: []Operation{Create}}}},
				{"B", both{&step{name: "B", log: log, ops: all}}},
			}
		}, Delete, []string{"admit B", "validate B"}, 0},
		{"a mutating error stops the chain as a 403", func(log *[]string) []Named {
			return []Named{
				{"A", mutating{&step{name: "A", log: log, ops: all, err: errors.New("no")}}},
				{"B", both{&step{name: "B", log: log, ops: all}}},
			}
		}, Create, []string{"admit A"}, 403},
		{"a status error keeps its code", func(log *[]string) []Named {
			return []Named{
				{"A", validating{&step{name: "A", log: log, ops: all, err: apierrors.NewNotFound(meta.GroupResource{Resource: "namespaces"}, "x")}}},
				{"B", validating{&step{name: "B", log: log, ops: all}}},
			}
		}, Create, []string{"validate A"}, 404},
		{"reinvocation runs the mutating plugins once more", func(log *[]string) []Named {
			return []Named{
				{"A", mutating{&step{name: "A", log: log, ops: all}}},
				{"B", mutating{&step{name: "B", log: log, ops: all, reinvok: true}}},
				{"C", validating{&step{name: "C", log: log, ops: all}}},
			}
		}, Update, []string{"admit A", "admit B", "admit A again", "admit B again", "validate C"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var log []string
			reg := prometheus.NewRegistry()
			c := NewChain(tc.plugins(&log), NewMetrics(reg))
			a := &Attributes{Operation: tc.op, Resource: meta.GroupVersionResource{Version: "v1", Resource: "pods"}, Name: "p"}
			err := c.Admit(context.Background(), a)
			if err == nil {
				err = c.Validate(context.Background(), a)
			}
			if diff := cmp.Diff(tc.want, log); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			var code int32
			if err != nil {
				code = apierrors.CodeForError(err)
			}
			if code != tc.code {
				t.Errorf("code %d (%v), want %d", code, err, tc.code)
			}
			if tc.code == 403 && !strings.Contains(err.Error(), `pods "p" is forbidden: no`) {
				t.Errorf("message %q", err)
			}
			if n := testutil.CollectAndCount(reg, "apiserver_admission_controller_admission_duration_seconds"); n == 0 {
				t.Error("no per-plugin latency recorded")
			}
		})
	}
}

// TestMetricsSeries: observations land in the series of their labels,
// also when the series' observers are reused.
func TestMetricsSeries(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	for _, err := range []error{nil, nil, errors.New("no"), nil} {
		m.observePlugin("A", stepAdmit, Create, err, 0)
		m.observePlugin("B", stepValidate, Update, err, 0)
		m.observeStep(stepAdmit, Create, err, 0)
	}
	want := `
# HELP apiserver_admission_step_admission_duration_seconds Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).
# TYPE apiserver_admission_step_admission_duration_seconds histogram
` + series("apiserver_admission_step_admission_duration_seconds", `operation="CREATE",rejected="false",type="admit"`, 3, stepBuckets) +
		series("apiserver_admission_step_admission_duration_seconds", `operation="CREATE",rejected="true",type="admit"`, 1, stepBuckets)
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "apiserver_admission_step_admission_duration_seconds"); err != nil {
		t.Error(err)
	}
	wantPlugin := `
# HELP apiserver_admission_controller_admission_duration_seconds Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).
# TYPE apiserver_admission_controller_admission_duration_seconds histogram
` + series("apiserver_admission_controller_admission_duration_seconds", `name="A",operation="CREATE",rejected="false",type="admit"`, 3, pluginBuckets) +
		series("apiserver_admission_controller_admission_duration_seconds", `name="A",operation="CREATE",rejected="true",type="admit"`, 1, pluginBuckets) +
		series("apiserver_admission_controller_admission_duration_seconds", `name="B",operation="UPDATE",rejected="false",type="validate"`, 3, pluginBuckets) +
		series("apiserver_admission_controller_admission_duration_seconds", `name="B",operation="UPDATE",rejected="true",type="validate"`, 1, pluginBuckets)
	if err := testutil.GatherAndCompare(reg, strings.NewReader(wantPlugin), "apiserver_admission_controller_admission_duration_seconds"); err != nil {
		t.Error(err)
	}
}

var (
	stepBuckets   = []string{"0.005", "0.025", "0.1", "0.5", "1", "2.5"}
	pluginBuckets = []string{"0.005", "0.025", "0.1", "0.5", "1", "2.5", "10", "25"}
)

// series is the text exposition of a histogram of n zero observations.
func series(name, labels string, n int, buckets []string) string {
	var b strings.Builder
	for _, le := range append(buckets, "+Inf") {
		fmt.Fprintf(&b, "%s_bucket{%s,le=%q} %d\n", name, labels, le, n)
	}
	fmt.Fprintf(&b, "%s_sum{%s} 0\n%s_count{%s} %d\n", name, labels, name, labels, n)
	return b.String()
}
