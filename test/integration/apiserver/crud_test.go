package apiserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"platform.io/platform/test/integration/framework"
)

// TestOperations runs the spec's operation table (create, replace, patch,
// get, list, list all namespaces, delete, delete collection) with the status
// codes of its endpoint tables, for every resource.
func TestOperations(t *testing.T) {
	s := framework.Start(t)
	for i, smp := range samples {
		t.Run(smp.apiVersion+"/"+smp.kind, func(t *testing.T) {
			ns := fmt.Sprintf("ops-%d", i)
			createNamespace(t, s, ns)
			coll := smp.collection(ns)
			name := smp.name()
			created := s.Do(t, "POST", coll, smp.object(name, ns)).Expect(t, http.StatusCreated).Map(t)
			if created["kind"] != smp.kind || created["apiVersion"] != smp.apiVersion {
				t.Fatalf("created object has kind %v apiVersion %v", created["kind"], created["apiVersion"])
			}
			item := coll + "/" + name
			got := s.Do(t, "GET", item, nil).Expect(t, http.StatusOK).Map(t)
			rv := metaOf(got)["resourceVersion"].(string)
			if rv != metaOf(created)["resourceVersion"] {
				t.Fatalf("get returned resourceVersion %s, create %s", rv, metaOf(created)["resourceVersion"])
			}
			list := s.Do(t, "GET", coll, nil).Expect(t, http.StatusOK).Map(t)
			if list["kind"] != smp.kind+"List" || len(list["items"].([]any)) < 1 {
				t.Fatalf("list: kind %v, %d items", list["kind"], len(list["items"].([]any)))
			}
			if smp.namespaced {
				all := s.Do(t, "GET", strings.Replace(smp.path, "/namespaces/%s", "", 1), nil).Expect(t, http.StatusOK).Map(t)
				if len(all["items"].([]any)) < 1 {
					t.Fatal("list across namespaces is empty")
				}
			}
			// Replace with the current resourceVersion: 200.
			replaced := s.Do(t, "PUT", item, got).Expect(t, http.StatusOK).Map(t)
			// Replace with a stale resourceVersion after a change: 409 Conflict.
			s.Do(t, "PATCH", item, smp.change, mergePatch).Expect(t, http.StatusOK)
			s.Do(t, "PUT", item, replaced).ExpectStatus(t, http.StatusConflict, "Conflict")
			// Replace without a resourceVersion is unconditional.
			fresh := s.Do(t, "GET", item, nil).Expect(t, http.StatusOK).Map(t)
			delete(metaOf(fresh), "resourceVersion")
			s.Do(t, "PUT", item, fresh).Expect(t, http.StatusOK)
			// Patch never conflicts: JSON patch and strategic merge patch too.
			s.Do(t, "PATCH", item, `[{"op":"add","path":"/metadata/labels","value":{"p":"json"}}]`, jsonPatch).Expect(t, http.StatusOK)
			s.Do(t, "PATCH", item, `{"metadata":{"annotations":{"p":"smp"}}}`, strategicPatch).Expect(t, http.StatusOK)
			// Delete: 200 with a Success Status, then 404. A namespace first
			// turns Terminating until its finalizers are cleared.
			del := s.Do(t, "DELETE", item, nil).Expect(t, http.StatusOK).Map(t)
			if smp.kind == "Namespace" {
				if get(del, "status", "phase") != "Terminating" {
					t.Fatalf("deleted namespace: %v", del)
				}
				del["spec"] = map[string]any{}
				s.Do(t, "PUT", item+"/finalize", del).Expect(t, http.StatusOK)
			} else if del["kind"] != "Status" || del["status"] != "Success" {
				t.Fatalf("delete returned %v", del)
			}
			s.Do(t, "GET", item, nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
			s.Do(t, "DELETE", item, nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
			if smp.kind == "Namespace" || smp.kind == "Node" {
				return
			}
			// Delete collection: 200 Status, and the collection is empty after.
			for j := 0; j < 3; j++ {
				s.Do(t, "POST", coll, smp.object(fmt.Sprintf("%s-%d", name, j), ns)).Expect(t, http.StatusCreated)
			}
			if smp.kind == "PriorityClass" {
				// The built-in classes cannot be deleted: the others go,
				// then the delete stops at the first built-in one with 403.
				s.Do(t, "DELETE", coll, nil).ExpectStatus(t, http.StatusForbidden, "Forbidden")
				var left []string
				for _, it := range s.Do(t, "GET", coll, nil).Expect(t, http.StatusOK).Map(t)["items"].([]any) {
					left = append(left, metaOf(it.(map[string]any))["name"].(string))
				}
				if strings.Join(left, ",") != "system-cluster-critical,system-node-critical" {
					t.Fatalf("left after delete collection: %v", left)
				}
				return
			}
			dc := s.Do(t, "DELETE", coll, nil).Expect(t, http.StatusOK).Map(t)
			if dc["kind"] != "Status" || dc["status"] != "Success" {
				t.Fatalf("delete collection returned %v", dc)
			}
			if n := len(s.Do(t, "GET", coll, nil).Expect(t, http.StatusOK).Map(t)["items"].([]any)); n != 0 {
				t.Fatalf("%d items left after delete collection", n)
			}
		})
	}
}
