package apiserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// TestList_LabelSelector_AllOperators: =, ==, !=, in, notin, exists, !
// and their conjunctions select the right objects (!= and notin also
// select objects without the key).
func TestList_LabelSelector_AllOperators(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "ls")
		coll := "/api/v1/namespaces/ls/configmaps"
		for name, labels := range map[string]string{
			"a": `{"env":"prod","tier":"fe"}`,
			"b": `{"env":"dev"}`,
			"c": `{"env":"qa","tier":"be"}`,
			"d": `{}`,
		} {
			s.Do(t, "POST", coll, cm(name, labels, "1")).Expect(t, http.StatusCreated)
		}
		cases := map[string][]string{
			"":                              {"a", "b", "c", "d"},
			"env=prod":                      {"a"},
			"env==prod":                     {"a"},
			"env!=prod":                     {"b", "c", "d"},
			"env in (prod,dev)":             {"a", "b"},
			"env notin (prod,dev)":          {"c", "d"},
			"env":                           {"a", "b", "c"},
			"!env":                          {"d"},
			"env,!tier":                     {"b"},
			"env=prod,tier=fe":              {"a"},
			"tier in (fe,be),env!=qa":       {"a"},
			"env notin (qa), tier":          {"a"},
			"env in (nothing)":              {},
			" env = prod ":                  {"a"},
			"tier notin (fe),env notin (x)": {"b", "c", "d"},
		}
		for sel, want := range cases {
			names, _, _ := list(t, s, coll+q("labelSelector", sel))
			if !sameNames(names, want) {
				t.Errorf("labelSelector %q: got %v, want %v", sel, names, want)
			}
		}
		for _, bad := range []string{"env in (", "=x", "env in prod", "a b", "!env=x"} {
			s.Do(t, "GET", coll+q("labelSelector", bad), nil).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
		}
	})
}

// TestList_FieldSelector_MetadataNameAndNamespace_AllTypes: every type can
// be selected by metadata.name and metadata.namespace, with = == and !=.
func TestList_FieldSelector_MetadataNameAndNamespace_AllTypes(t *testing.T) {
	t.Parallel()
	s := framework.Start(t)
	createNamespace(t, s, "fa")
	createNamespace(t, s, "fb")
	for _, smp := range samples {
		t.Run(smp.apiVersion+"/"+smp.kind, func(t *testing.T) {
			base := smp.name()
			n1, n2 := base+"-1", base+"-2"
			coll := smp.collection("fa")
			s.Do(t, "POST", coll, smp.object(n1, "fa")).Expect(t, http.StatusCreated)
			s.Do(t, "POST", coll, smp.object(n2, "fa")).Expect(t, http.StatusCreated)
			check := func(path, sel string, want ...string) {
				t.Helper()
				names, _, _ := list(t, s, path+q("fieldSelector", sel))
				var mine []string
				for _, n := range names {
					if strings.HasPrefix(n, base+"-") {
						mine = append(mine, n)
					}
				}
				if !sameNames(mine, want) {
					t.Errorf("%s fieldSelector %q: got %v, want %v", path, sel, mine, want)
				}
				// Nothing else that fails the selector slips through.
				if strings.HasPrefix(sel, "metadata.name=") {
					if len(names) != len(want) {
						t.Errorf("%s fieldSelector %q: got %v", path, sel, names)
					}
				}
			}
			check(coll, "metadata.name="+n1, n1)
			check(coll, "metadata.name=="+n2, n2)
			check(coll, "metadata.name!="+n1, n2)
			check(coll, "metadata.name=nothing")
			if !smp.namespaced {
				// Upstream selects cluster-scoped types by metadata.name only.
				return
			}
			s.Do(t, "POST", smp.collection("fb"), smp.object(n1, "fb")).Expect(t, http.StatusCreated)
			all := strings.Replace(smp.path, "/namespaces/%s", "", 1)
			check(all, "metadata.namespace=fa", n1, n2)
			check(all, "metadata.namespace=fb", n1)
			check(all, "metadata.namespace!=fa", n1)
			check(all, "metadata.namespace=fa,metadata.name="+n1, n1)
			check(smp.collection("fb"), "metadata.namespace=fa")
		})
	}
}

// TestList_FieldSelector_PerTypeFields: the per-type selectable fields of
// pods, nodes, secrets, events, namespaces, replicasets and jobs.
func TestList_FieldSelector_PerTypeFields(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "pf")
		pods := "/api/v1/namespaces/pf/pods"
		s.Do(t, "POST", pods, `{"metadata":{"name":"p1"},"spec":{"nodeName":"node-a","schedulerName":"custom","restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}`).Expect(t, http.StatusCreated)
		s.Do(t, "POST", pods, `{"metadata":{"name":"p2"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`).Expect(t, http.StatusCreated)
		s.Do(t, "PATCH", pods+"/p1/status", `{"status":{"phase":"Running","podIP":"10.0.0.5","podIPs":[{"ip":"10.0.0.5"}]}}`, mergePatch).Expect(t, http.StatusOK)

		s.Do(t, "POST", "/api/v1/nodes", `{"metadata":{"name":"pf-n1"},"spec":{"unschedulable":true}}`).Expect(t, http.StatusCreated)
		s.Do(t, "POST", "/api/v1/nodes", `{"metadata":{"name":"pf-n2"},"spec":{}}`).Expect(t, http.StatusCreated)

		secrets := "/api/v1/namespaces/pf/secrets"
		s.Do(t, "POST", secrets, `{"metadata":{"name":"s1"},"data":{"a":"Yg=="}}`).Expect(t, http.StatusCreated)
		s.Do(t, "POST", secrets, `{"metadata":{"name":"s2"},"type":"example.com/custom","data":{"a":"Yg=="}}`).Expect(t, http.StatusCreated)

		events := "/api/v1/namespaces/pf/events"
		s.Do(t, "POST", events, `{"metadata":{"name":"e1"},"involvedObject":{"kind":"Pod","name":"p1","namespace":"pf","uid":"u-1","apiVersion":"v1","fieldPath":"spec.containers{c}"},"reason":"Started","message":"m","type":"Normal","source":{"component":"kubelet"}}`).Expect(t, http.StatusCreated)
		s.Do(t, "POST", events, `{"metadata":{"name":"e2"},"involvedObject":{"kind":"ReplicaSet","name":"r","namespace":"pf"},"reason":"Failed","message":"m","type":"Warning","source":{"component":"scheduler"}}`).Expect(t, http.StatusCreated)

		rs := "/apis/apps/v1/namespaces/pf/replicasets"
		rsSample := sampleOf(t, "ReplicaSet", "apps/v1")
		s.Do(t, "POST", rs, rsSample.object("rs1", "pf")).Expect(t, http.StatusCreated)
		s.Do(t, "POST", rs, rsSample.object("rs2", "pf")).Expect(t, http.StatusCreated)
		s.Do(t, "PATCH", rs+"/rs1/status", `{"status":{"replicas":2}}`, mergePatch).Expect(t, http.StatusOK)

		jobs := "/apis/batch/v1/namespaces/pf/jobs"
		jobSample := sampleOf(t, "Job", "batch/v1")
		s.Do(t, "POST", jobs, jobSample.object("j1", "pf")).Expect(t, http.StatusCreated)
		s.Do(t, "POST", jobs, jobSample.object("j2", "pf")).Expect(t, http.StatusCreated)
		s.Do(t, "PATCH", jobs+"/j1/status", `{"status":{"succeeded":1}}`, mergePatch).Expect(t, http.StatusOK)

		cases := []struct {
			path, sel string
			want      []string
		}{
			{pods, "spec.nodeName=node-a", []string{"p1"}},
			{pods, "spec.nodeName=", []string{"p2"}},
			{pods, "spec.nodeName!=", []string{"p1"}},
			{pods, "spec.schedulerName=custom", []string{"p1"}},
			{pods, "spec.schedulerName=default-scheduler", []string{"p2"}},
			{pods, "status.phase=Running", []string{"p1"}},
			{pods, "status.phase=Pending", []string{"p2"}},
			{pods, "spec.restartPolicy=Never", []string{"p1"}},
			{pods, "spec.restartPolicy=Always", []string{"p2"}},
			{pods, "status.podIP=10.0.0.5", []string{"p1"}},
			{pods, "status.phase!=Running,spec.nodeName=", []string{"p2"}},
			{"/api/v1/pods", "spec.nodeName=node-a,metadata.namespace=pf", []string{"p1"}},
			{"/api/v1/nodes", "spec.unschedulable=true", []string{"pf-n1"}},
			{"/api/v1/nodes", "spec.unschedulable=false,metadata.name=pf-n2", []string{"pf-n2"}},
			{secrets, "type=Opaque", []string{"s1"}},
			{secrets, "type=example.com/custom", []string{"s2"}},
			{events, "involvedObject.kind=Pod", []string{"e1"}},
			{events, "involvedObject.name=r", []string{"e2"}},
			{events, "involvedObject.namespace=pf", []string{"e1", "e2"}},
			{events, "involvedObject.uid=u-1", []string{"e1"}},
			{events, "involvedObject.apiVersion=v1", []string{"e1"}},
			{events, "involvedObject.fieldPath=spec.containers{c}", []string{"e1"}},
			{events, "reason=Failed", []string{"e2"}},
			{events, "source=kubelet", []string{"e1"}},
			{events, "type=Warning", []string{"e2"}},
			{events, "type!=Warning,reason=Started", []string{"e1"}},
			{"/api/v1/namespaces", "status.phase=Active,metadata.name=pf", []string{"pf"}},
			{"/api/v1/namespaces", "status.phase=Terminating,metadata.name=pf", nil},
			{rs, "status.replicas=2", []string{"rs1"}},
			{rs, "status.replicas=0", []string{"rs2"}},
			{jobs, "status.successful=1", []string{"j1"}},
			{jobs, "status.successful=0", []string{"j2"}},
		}
		for _, c := range cases {
			names, _, _ := list(t, s, c.path+q("fieldSelector", c.sel))
			if !sameNames(names, c.want) {
				t.Errorf("%s fieldSelector %q: got %v, want %v", c.path, c.sel, names, c.want)
			}
		}
	})
}

// TestList_FieldSelector_UnknownField_BadRequest: a field the type cannot
// select on (or a malformed selector) is a 400 on list, watch and delete
// collection.
func TestList_FieldSelector_UnknownField_BadRequest(t *testing.T) {
	t.Parallel()
	s := framework.Start(t)
	createNamespace(t, s, "uf")
	s.Do(t, "POST", "/api/v1/namespaces/uf/configmaps", cm("keep", "", "1")).Expect(t, http.StatusCreated)
	for _, c := range []struct{ path, sel string }{
		{"/api/v1/namespaces/uf/configmaps", "status.phase=Running"},
		{"/api/v1/namespaces/uf/configmaps", "data.k=1"},
		{"/api/v1/namespaces/uf/pods", "spec.bogus=x"},
		{"/api/v1/namespaces/uf/pods", "spec.unschedulable=true"},
		{"/api/v1/nodes", "spec.nodeName=x"},
		{"/api/v1/namespaces/uf/secrets", "data=x"},
		{"/api/v1/namespaces/uf/events", "involvedObject.bogus=x"},
		{"/api/v1/namespaces", "spec.finalizers=x"},
		{"/apis/apps/v1/namespaces/uf/deployments", "status.replicas=1"},
		{"/apis/batch/v1/namespaces/uf/jobs", "status.succeeded=1"},
		{"/api/v1/namespaces/uf/configmaps", "metadata.name"},
		{"/api/v1/namespaces/uf/configmaps", "metadata.name in (a)"},
	} {
		r := s.Do(t, "GET", c.path+q("fieldSelector", c.sel), nil)
		if r.Code != http.StatusBadRequest {
			t.Errorf("list %s fieldSelector %q: HTTP %d, want 400", c.path, c.sel, r.Code)
		}
	}
	s.Do(t, "DELETE", "/api/v1/namespaces/uf/configmaps"+q("fieldSelector", "data.k=1"), nil).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
	s.Do(t, "GET", "/api/v1/namespaces/uf/configmaps/keep", nil).Expect(t, http.StatusOK)
}

// TestList_ResourceVersion_Semantics: unset is a consistent read (a write
// is visible at once); 0 is served (from the cache); a value gives a result
// at least that fresh; a value far in the future fails with 504 Timeout,
// cause ResourceVersionTooLarge, after a few seconds at most.
func TestList_ResourceVersion_Semantics(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "lrv")
		coll := "/api/v1/namespaces/lrv/configmaps"
		for i := 0; i < 5; i++ {
			name := fmt.Sprintf("c%d", i)
			obj := s.Do(t, "POST", coll, cm(name, "", "1")).Expect(t, http.StatusCreated).Map(t)
			written := atoi(t, rvOf(t, obj))
			names, rv, _ := list(t, s, coll)
			if len(names) != i+1 || atoi(t, rv) < written {
				t.Fatalf("consistent list after writing %s at %d: %v at %s", name, written, names, rv)
			}
			names, rv, _ = list(t, s, coll+q("resourceVersion", rvOf(t, obj)))
			if len(names) != i+1 || atoi(t, rv) < written {
				t.Fatalf("list at resourceVersion %d: %v at %s", written, names, rv)
			}
			_, rv, _ = list(t, s, coll+"?resourceVersion=0")
			if atoi(t, rv) <= 0 {
				t.Fatalf("list at resourceVersion 0: resourceVersion %s", rv)
			}
		}
		// The same on a single get and an all-namespaces list.
		_, rv, _ := list(t, s, "/api/v1/configmaps?resourceVersion=0")
		list(t, s, "/api/v1/configmaps"+q("resourceVersion", rv))

		future := fmt.Sprint(atoi(t, listRV(t, s, coll)) + 1000000)
		start := time.Now()
		for _, p := range []string{coll + q("resourceVersion", future), coll + q("resourceVersion", future, "limit", "2")} {
			st := s.Do(t, "GET", p, nil).ExpectStatus(t, http.StatusGatewayTimeout, "Timeout")
			causes, _ := get(st, "details", "causes").([]any)
			found := false
			for _, c := range causes {
				if c.(map[string]any)["reason"] == "ResourceVersionTooLarge" {
					found = true
				}
			}
			if !found {
				t.Fatalf("504 for a future resourceVersion lacks cause ResourceVersionTooLarge: %v", st)
			}
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Fatalf("future resourceVersion took %v to fail", d)
		}
	})
}

// TestDeleteCollection_ListParameters: delete collection takes the list
// parameters: only objects matching labelSelector / fieldSelector go.
func TestDeleteCollection_ListParameters(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "dcl")
		coll := "/api/v1/namespaces/dcl/configmaps"
		for name, app := range map[string]string{"a": "x", "b": "y", "c": "x", "d": "z", "e": "x"} {
			s.Do(t, "POST", coll, cm(name, `{"app":"`+app+`"}`, "1")).Expect(t, http.StatusCreated)
		}
		s.Do(t, "DELETE", coll+q("labelSelector", "app=x"), nil).Expect(t, http.StatusOK)
		if names, _, _ := list(t, s, coll); !sameNames(names, []string{"b", "d"}) {
			t.Fatalf("after deleting app=x: %v, want [b d]", names)
		}
		s.Do(t, "DELETE", coll+q("fieldSelector", "metadata.name=b"), nil).Expect(t, http.StatusOK)
		if names, _, _ := list(t, s, coll); !sameNames(names, []string{"d"}) {
			t.Fatalf("after deleting metadata.name=b: %v, want [d]", names)
		}
		s.Do(t, "DELETE", coll+q("labelSelector", "app in (nothing)"), nil).Expect(t, http.StatusOK)
		if names, _, _ := list(t, s, coll); !sameNames(names, []string{"d"}) {
			t.Fatalf("after deleting nothing: %v, want [d]", names)
		}
	})
}
