package apiserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"platform.io/platform/test/integration/framework"
)

// kubectlAccept is what kubectl get sends: Tables in upstream's group, then JSON.
const kubectlAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"

func tableAccept(group, version string) framework.Header {
	return framework.Header{"Accept": "application/json;as=Table;v=" + version + ";g=" + group}
}

// decodedTable is a Table response, decoded loosely.
type decodedTable struct {
	Kind       string `json:"kind"`
	APIVersion string `json:"apiVersion"`
	Metadata   struct {
		ResourceVersion    string `json:"resourceVersion"`
		Continue           string `json:"continue"`
		RemainingItemCount *int64 `json:"remainingItemCount"`
	} `json:"metadata"`
	ColumnDefinitions []struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Format   string `json:"format"`
		Priority int32  `json:"priority"`
	} `json:"columnDefinitions"`
	Rows []struct {
		Cells      []any            `json:"cells"`
		Conditions []map[string]any `json:"conditions"`
		Object     map[string]any   `json:"object"`
	} `json:"rows"`
}

func (d decodedTable) columns() string {
	var names []string
	for _, c := range d.ColumnDefinitions {
		names = append(names, c.Name)
	}
	return strings.Join(names, ",")
}

func getTable(t *testing.T, s *framework.Server, path string, h framework.Header) decodedTable {
	t.Helper()
	r := s.Do(t, "GET", path, nil, h).Expect(t, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	var d decodedTable
	r.Into(t, &d)
	if d.Kind != "Table" {
		t.Fatalf("GET %s: got %s", path, r.Body)
	}
	return d
}

const podColumns = "Name,Ready,Status,Restarts,Age,IP,Node,Nominated Node,Readiness Gates"

func TestTable_GetAndList(t *testing.T) {
	s := framework.Start(t)
	createNamespace(t, s, "tables")
	s.Do(t, "POST", "/api/v1/namespaces/tables/pods", `{"metadata":{"name":"web"},"spec":`+podSpec+`}`).Expect(t, http.StatusCreated)
	s.Do(t, "POST", "/api/v1/namespaces/tables/configmaps", cm("conf", "", "v")).Expect(t, http.StatusCreated)
	for _, gv := range [][2]string{{"meta.platform.io", "v1"}, {"meta.platform.io", "v1beta1"}, {"meta.k8s.io", "v1"}, {"meta.k8s.io", "v1beta1"}} {
		t.Run(gv[0]+"/"+gv[1], func(t *testing.T) {
			h := tableAccept(gv[0], gv[1])
			list := getTable(t, s, "/api/v1/namespaces/tables/pods", h)
			if list.APIVersion != gv[0]+"/"+gv[1] || list.columns() != podColumns || list.Metadata.ResourceVersion == "" {
				t.Fatalf("pod list table: %+v", list)
			}
			for i, c := range list.ColumnDefinitions {
				if (c.Priority == 1) != (i >= 5) || (c.Name == "Name") != (c.Format == "name") {
					t.Errorf("column %+v", c)
				}
			}
			if len(list.Rows) != 1 {
				t.Fatalf("%d rows", len(list.Rows))
			}
			row := list.Rows[0]
			if row.Cells[0] != "web" || row.Cells[1] != "0/2" || row.Cells[2] != "Pending" || row.Cells[3] != "0" || row.Cells[6] != "<none>" {
				t.Errorf("pod cells %v", row.Cells)
			}
			if row.Object["kind"] != "PartialObjectMetadata" || row.Object["apiVersion"] != gv[0]+"/"+gv[1] ||
				get(row.Object, "metadata", "name") != "web" || get(row.Object, "metadata", "namespace") != "tables" || row.Object["spec"] != nil {
				t.Errorf("row object %v", row.Object)
			}
			one := getTable(t, s, "/api/v1/namespaces/tables/pods/web", h)
			if len(one.Rows) != 1 || one.Rows[0].Cells[0] != "web" || one.Metadata.ResourceVersion != get(one.Rows[0].Object, "metadata", "resourceVersion") {
				t.Errorf("pod table %+v", one)
			}
			cms := getTable(t, s, "/api/v1/namespaces/tables/configmaps", h)
			if cms.columns() != "Name,Created At" || cms.ColumnDefinitions[1].Type != "date" || len(cms.Rows) != 1 || cms.Rows[0].Cells[0] != "conf" {
				t.Errorf("default table %+v", cms)
			}
			if created, _ := cms.Rows[0].Cells[1].(string); !strings.HasSuffix(created, "Z") || len(created) != len("2006-01-02T15:04:05Z") {
				t.Errorf("Created At cell %q", cms.Rows[0].Cells[1])
			}
		})
	}
}

func TestTable_IncludeObject(t *testing.T) {
	s := framework.Start(t)
	createNamespace(t, s, "incl")
	s.Do(t, "POST", "/api/v1/namespaces/incl/configmaps", cm("a", `{"app":"x"}`, "v")).Expect(t, http.StatusCreated)
	h := tableAccept("meta.k8s.io", "v1")
	full := getTable(t, s, "/api/v1/namespaces/incl/configmaps?includeObject=Object", h)
	if o := full.Rows[0].Object; o["kind"] != "ConfigMap" || o["apiVersion"] != "v1" || get(o, "data", "k") != "v" {
		t.Errorf("Object row carries %v", o)
	}
	meta := getTable(t, s, "/api/v1/namespaces/incl/configmaps/a?includeObject=Metadata", h)
	if o := meta.Rows[0].Object; o["kind"] != "PartialObjectMetadata" || get(o, "metadata", "labels", "app") != "x" || o["data"] != nil {
		t.Errorf("Metadata row carries %v", o)
	}
	none := s.Do(t, "GET", "/api/v1/namespaces/incl/configmaps?includeObject=None", nil, h).Expect(t, http.StatusOK)
	if bytes.Contains(none.Body, []byte(`"object"`)) {
		t.Errorf("None carries objects: %s", none.Body)
	}
	for _, path := range []string{"/api/v1/namespaces/incl/configmaps?includeObject=Everything", "/api/v1/namespaces/incl/configmaps/a?includeObject=x",
		"/api/v1/namespaces/incl/configmaps?watch=true&includeObject=x"} {
		s.Do(t, "GET", path, nil, h).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
	}
	// Without a Table, includeObject means nothing.
	s.Do(t, "GET", "/api/v1/namespaces/incl/configmaps?includeObject=Everything", nil).Expect(t, http.StatusOK)
}

func TestTable_Negotiation(t *testing.T) {
	s := framework.Start(t)
	createNamespace(t, s, "neg")
	// A create cannot be a Table: with JSON acceptable too, the answer is JSON.
	r := s.Do(t, "POST", "/apis/apps/v1/namespaces/neg/deployments", `{"metadata":{"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":`+templ(`{"app":"web"}`)+`}}`,
		framework.Header{"Accept": kubectlAccept}).Expect(t, http.StatusCreated)
	if m := r.Map(t); m["kind"] != "Deployment" {
		t.Fatalf("create answered %s", r.Body)
	}
	// So is the scale subresource, which has no Table here.
	if m := s.Do(t, "GET", "/apis/apps/v1/namespaces/neg/deployments/web/scale", nil, framework.Header{"Accept": kubectlAccept}).Expect(t, http.StatusOK).Map(t); m["kind"] != "Scale" {
		t.Fatalf("scale answered %v", m)
	}
	// Status is the object's own Table.
	if d := getTable(t, s, "/apis/apps/v1/namespaces/neg/deployments/web/status", framework.Header{"Accept": kubectlAccept}); d.Rows[0].Cells[1] != "0/2" {
		t.Errorf("status table %+v", d)
	}
	only := tableAccept("meta.platform.io", "v1")
	s.Do(t, "POST", "/api/v1/namespaces/neg/configmaps", cm("c", "", "v"), only).ExpectStatus(t, http.StatusNotAcceptable, "NotAcceptable")
	s.Do(t, "DELETE", "/apis/apps/v1/namespaces/neg/deployments/web", nil, only).ExpectStatus(t, http.StatusNotAcceptable, "NotAcceptable")
	// An unknown Table group or version falls through to JSON when allowed, else 406.
	s.Do(t, "GET", "/api/v1/namespaces/neg/configmaps", nil, tableAccept("meta.example.com", "v1")).ExpectStatus(t, http.StatusNotAcceptable, "NotAcceptable")
	if d := getTable(t, s, "/apis/apps/v1/namespaces/neg/deployments", framework.Header{"Accept": kubectlAccept}); d.APIVersion != "meta.k8s.io/v1" ||
		d.columns() != "Name,Ready,Up-to-date,Available,Age,Containers,Images,Selector" || d.Rows[0].Cells[7] != "app=web" {
		t.Errorf("deployment table %+v", d)
	}
}

func TestTable_ChunkedList(t *testing.T) {
	s := framework.Start(t)
	createNamespace(t, s, "chunks")
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		s.Do(t, "POST", "/api/v1/namespaces/chunks/configmaps", cm(n, "", n)).Expect(t, http.StatusCreated)
	}
	h := tableAccept("meta.k8s.io", "v1")
	var names []string
	path := "/api/v1/namespaces/chunks/configmaps?limit=2"
	for pages := 0; ; pages++ {
		d := getTable(t, s, path, h)
		for _, r := range d.Rows {
			names = append(names, r.Cells[0].(string))
		}
		if pages == 0 && (d.Metadata.Continue == "" || d.Metadata.RemainingItemCount == nil || *d.Metadata.RemainingItemCount != 3 || len(d.Rows) != 2) {
			t.Fatalf("first page %+v", d)
		}
		if d.Metadata.Continue == "" {
			break
		}
		if pages > 5 {
			t.Fatal("too many pages")
		}
		path = "/api/v1/namespaces/chunks/configmaps?limit=2&continue=" + d.Metadata.Continue
	}
	if strings.Join(names, ",") != "a,b,c,d,e" {
		t.Errorf("pages gave %v", names)
	}
}

func TestTable_Watch(t *testing.T) {
	s := framework.Start(t)
	createNamespace(t, s, "watched")
	rv, _ := get(s.Do(t, "GET", "/api/v1/namespaces/watched/configmaps", nil).Expect(t, http.StatusOK).Map(t), "metadata", "resourceVersion").(string)
	s.Do(t, "POST", "/api/v1/namespaces/watched/configmaps", cm("one", "", "1")).Expect(t, http.StatusCreated)
	s.Do(t, "POST", "/api/v1/namespaces/watched/configmaps", cm("two", "", "2")).Expect(t, http.StatusCreated)
	s.Do(t, "DELETE", "/api/v1/namespaces/watched/configmaps/one", nil).Expect(t, http.StatusOK)
	r := s.Do(t, "GET", "/api/v1/namespaces/watched/configmaps"+q("watch", "true", "resourceVersion", rv, "timeoutSeconds", "2", "allowWatchBookmarks", "true"),
		nil, tableAccept("meta.k8s.io", "v1")).Expect(t, http.StatusOK)
	type event struct {
		Type   string          `json:"type"`
		Object json.RawMessage `json:"object"`
	}
	var got []string
	sc := bufio.NewScanner(bytes.NewReader(r.Body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("event %q: %v", sc.Bytes(), err)
		}
		if e.Type == "BOOKMARK" {
			if bytes.Contains(e.Object, []byte(`"Table"`)) {
				t.Errorf("bookmark became a Table: %s", e.Object)
			}
			continue
		}
		var d decodedTable
		if err := json.Unmarshal(e.Object, &d); err != nil || d.Kind != "Table" || d.APIVersion != "meta.k8s.io/v1" || len(d.Rows) != 1 {
			t.Fatalf("event object %s", e.Object)
		}
		// Only the first Table carries the columns.
		if first := len(got) == 0; first != (d.columns() == "Name,Created At") || d.Metadata.ResourceVersion == "" {
			t.Errorf("event %d: columns %q, resourceVersion %q", len(got), d.columns(), d.Metadata.ResourceVersion)
		}
		got = append(got, e.Type+" "+d.Rows[0].Cells[0].(string))
	}
	if strings.Join(got, ", ") != "ADDED one, ADDED two, DELETED one" {
		t.Errorf("events %v", got)
	}
}
