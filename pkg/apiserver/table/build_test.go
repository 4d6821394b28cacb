package table

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// configMaps is a resource without columns of its own.
var configMaps = &registry.Resource{Version: "v1", Name: "configmaps", Kind: "ConfigMap", Namespaced: true}

func configMap(name string, created time.Time) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		TypeMeta: meta.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
		ObjectMeta: meta.ObjectMeta{
			Name: name, Namespace: "default", UID: "uid-" + meta.UID(name), ResourceVersion: "7",
			CreationTimestamp: meta.NewTime(created), Labels: map[string]string{"app": "web"},
		},
		Data: map[string]string{"k": "v"},
	}
}

func TestBuildDefaultColumns(t *testing.T) {
	created := time.Date(2024, 5, 1, 10, 0, 0, 0, time.FixedZone("CEST", 2*3600))
	left := int64(3)
	lm := meta.ListMeta{ResourceVersion: "42", Continue: "token", RemainingItemCount: &left}
	objs := []meta.Object{configMap("a", created), configMap("b", created)}
	tbl, err := Build(configMaps, objs, lm, Options{Group: "meta.k8s.io", Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if tbl.Kind != "Table" || tbl.APIVersion != "meta.k8s.io/v1" {
		t.Errorf("type is %s %s", tbl.APIVersion, tbl.Kind)
	}
	if tbl.ResourceVersion != "42" || tbl.Continue != "token" || tbl.RemainingItemCount == nil || *tbl.RemainingItemCount != 3 {
		t.Errorf("list metadata not carried: %+v", tbl.ListMeta)
	}
	cols := tbl.ColumnDefinitions
	if len(cols) != 2 || cols[0].Name != "Name" || cols[0].Type != "string" || cols[0].Format != "name" ||
		cols[1].Name != "Created At" || cols[1].Type != "date" || cols[0].Priority != 0 || cols[1].Priority != 0 {
		t.Errorf("default columns are %+v", cols)
	}
	if len(tbl.Rows) != 2 {
		t.Fatalf("%d rows", len(tbl.Rows))
	}
	if c := tbl.Rows[1].Cells; len(c) != 2 || c[0] != "b" || c[1] != "2024-05-01T08:00:00Z" {
		t.Errorf("cells are %v", c)
	}
}

func TestBuildIncludeObject(t *testing.T) {
	obj := configMap("a", time.Now())
	cases := []struct {
		include string
		check   func(t *testing.T, raw json.RawMessage)
	}{
		{"", func(t *testing.T, raw json.RawMessage) { checkPartial(t, raw, "meta.k8s.io/v1beta1") }},
		{IncludeMetadata, func(t *testing.T, raw json.RawMessage) { checkPartial(t, raw, "meta.k8s.io/v1beta1") }},
		{IncludeNone, func(t *testing.T, raw json.RawMessage) {
			if raw != nil {
				t.Errorf("None carries %s", raw)
			}
		}},
		{IncludeObject, func(t *testing.T, raw json.RawMessage) {
			var cm corev1.ConfigMap
			if err := json.Unmarshal(raw, &cm); err != nil {
				t.Fatal(err)
			}
			if cm.Kind != "ConfigMap" || cm.APIVersion != "v1" || cm.Data["k"] != "v" || cm.Name != "a" {
				t.Errorf("Object carries %s", raw)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.include, func(t *testing.T) {
			opts := Options{Group: "meta.k8s.io", Version: "v1beta1", IncludeObject: c.include}
			tbl, err := Build(configMaps, []meta.Object{obj}, meta.ListMeta{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, tbl.Rows[0].Object)
		})
	}
}

func checkPartial(t *testing.T, raw json.RawMessage, apiVersion string) {
	t.Helper()
	var p meta.PartialObjectMetadata
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	if p.Kind != "PartialObjectMetadata" || p.APIVersion != apiVersion || p.Name != "a" || p.Namespace != "default" ||
		p.UID != "uid-a" || p.Labels["app"] != "web" || p.ResourceVersion != "7" {
		t.Errorf("metadata row object is %s", raw)
	}
	if strings.Contains(string(raw), `"data"`) {
		t.Errorf("metadata row object carries the data: %s", raw)
	}
}

func TestBuildRejectsUnknownIncludeObject(t *testing.T) {
	_, err := Build(configMaps, nil, meta.ListMeta{}, Options{Group: "meta.platform.io", Version: "v1", IncludeObject: "All"})
	var se *apierrors.StatusError
	if !errors.As(err, &se) || se.Status().Code != http.StatusBadRequest || !strings.Contains(se.Error(), `"All"`) {
		t.Fatalf("got %v, want a 400 naming the value", err)
	}
	for _, v := range []string{"", "None", "Object", "Metadata"} {
		if _, err := ParseIncludeObject(v); err != nil {
			t.Errorf("%q: %v", v, err)
		}
	}
}

func TestBuildNoHeadersAndEmpty(t *testing.T) {
	tbl, err := Build(configMaps, nil, meta.ListMeta{ResourceVersion: "9"}, Options{Group: "meta.platform.io", Version: "v1", NoHeaders: true})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(tbl)
	want := `{"kind":"Table","apiVersion":"meta.platform.io/v1","metadata":{"resourceVersion":"9"},"columnDefinitions":null,"rows":[]}`
	if string(data) != want {
		t.Errorf("got %s\nwant %s", data, want)
	}
}

func TestBuildCustomColumns(t *testing.T) {
	res := &registry.Resource{Version: "v1", Name: "configmaps", Kind: "ConfigMap", Table: &registry.TableColumns{
		Columns: []meta.TableColumnDefinition{NameColumn(), Column("Data", TypeInteger, "keys"), Wide("Labels", TypeString, "labels")},
		Row: func(obj meta.Object) []any {
			cm := obj.(*corev1.ConfigMap)
			return []any{cm.Name, int64(len(cm.Data)), Labels(cm.Labels)}
		},
		Conditions: func(meta.Object) []meta.TableRowCondition {
			return []meta.TableRowCondition{{Type: "Completed", Status: "True"}}
		},
	}}
	tbl, err := Build(res, []meta.Object{configMap("a", time.Now())}, meta.ListMeta{}, Options{Group: "meta.k8s.io", Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if tbl.ColumnDefinitions[2].Priority != 1 {
		t.Errorf("wide column has priority %d", tbl.ColumnDefinitions[2].Priority)
	}
	row := tbl.Rows[0]
	if row.Cells[1] != int64(1) || row.Cells[2] != "app=web" || len(row.Conditions) != 1 {
		t.Errorf("row is %+v", row)
	}
	res.Table.Row = func(meta.Object) []any { return []any{"too few"} }
	if _, err := Build(res, []meta.Object{configMap("a", time.Now())}, meta.ListMeta{}, Options{}); err == nil {
		t.Error("a row with the wrong number of cells was accepted")
	}
}

func TestFormatHelpers(t *testing.T) {
	names, images := Containers([]corev1.Container{{Name: "app", Image: "nginx:1.25"}, {Name: "side", Image: "busybox"}})
	if names != "app,side" || images != "nginx:1.25,busybox" {
		t.Errorf("Containers = %q, %q", names, images)
	}
	if got := Labels(map[string]string{"b": "2", "a": "1"}); got != "a=1,b=2" {
		t.Errorf("Labels = %q", got)
	}
	if got := Labels(nil); got != "<none>" {
		t.Errorf("Labels(nil) = %q", got)
	}
	sel := &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []meta.LabelSelectorRequirement{{Key: "tier", Operator: meta.LabelSelectorOpIn, Values: []string{"b", "a"}}}}
	if got := Selector(sel); got != "app=web,tier in (a,b)" {
		t.Errorf("Selector = %q", got)
	}
	for _, s := range []*meta.LabelSelector{nil, {}} {
		if got := Selector(s); got != "<none>" {
			t.Errorf("Selector(%v) = %q", s, got)
		}
	}
	if got := Selector(&meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}}); got != "<error>" {
		t.Errorf("bad selector = %q", got)
	}
	yes, no := true, false
	if Bool(&yes) != "True" || Bool(&no) != "False" || Bool(nil) != "<unset>" {
		t.Error("Bool renders wrongly")
	}
}
