package crd

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	apiextv1 "platform.io/client/api/apiextensions/v1"

	"platform.io/platform/pkg/apiserver/crd/instance"
)

func TestTableColumns(t *testing.T) {
	o := &instance.Object{SplitStatus: true}
	doc := `{"metadata":{"name":"a","creationTimestamp":"2026-11-27T10:00:00Z"},"spec":{"n":3,"f":2,"list":[{"x":"first"}]},"status":{"phase":"Ready"}}`
	if err := json.Unmarshal([]byte(doc), o); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		cols []apiextv1.CustomResourceColumnDefinition
		want []any
	}{
		{"age by default", nil, []any{"a", "2026-11-27T10:00:00Z"}},
		{"declared columns", []apiextv1.CustomResourceColumnDefinition{
			{Name: "N", Type: "integer", JSONPath: ".spec.n"},
			{Name: "F", Type: "number", JSONPath: ".spec.f"},
			{Name: "Phase", Type: "string", JSONPath: ".status.phase"},
			{Name: "First", Type: "string", JSONPath: ".spec.list[0].x"},
			{Name: "Missing", Type: "string", JSONPath: ".spec.nope"},
			{Name: "Filter", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].status`},
		}, []any{"a", int64(3), float64(2), "Ready", "first", nil, nil}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cols := tableColumns(&apiextv1.CustomResourceDefinitionVersion{AdditionalPrinterColumns: tc.cols})
			if got := cols.Row(o); !cmp.Equal(got, tc.want) {
				t.Errorf("row %v, want %v", got, tc.want)
			}
			if len(cols.Columns) != len(tc.want) {
				t.Errorf("%d columns for %d cells", len(cols.Columns), len(tc.want))
			}
		})
	}
}
