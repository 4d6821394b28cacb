package crd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// TestVerbs runs every verb on the objects of a namespaced and a
// cluster-scoped custom resource.
func TestVerbs(t *testing.T) {
	s := framework.Start(t)
	cases := []struct {
		name, plural, kind, scope, base string
	}{
		{"namespaced", "crontabs", "CronTab", "Namespaced", "/apis/stable.example.com/v1/namespaces/default/crontabs"},
		{"cluster", "clusterwidgets", "ClusterWidget", "Cluster", "/apis/stable.example.com/v1/clusterwidgets"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			took := install(t, s, definition("stable.example.com", tc.plural, tc.kind, tc.scope))
			t.Logf("established and discovered in %v", took)
			verbs(t, s, tc.kind, tc.base)
		})
	}
}

func object(kind, name string, labels map[string]any, spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "stable.example.com/v1", "kind": kind,
		"metadata": map[string]any{"name": name, "labels": labels}, "spec": spec}
}

func meta(m map[string]any) map[string]any { return m["metadata"].(map[string]any) }

func items(t *testing.T, list map[string]any) []string {
	t.Helper()
	var names []string
	for _, it := range list["items"].([]any) {
		names = append(names, meta(it.(map[string]any))["name"].(string))
	}
	return names
}

func verbs(t *testing.T, s *framework.Server, kind, base string) {
	// create, with a generated name too; a duplicate is 409.
	created := s.Do(t, "POST", base, object(kind, "a", map[string]any{"tier": "front"}, map[string]any{"replicas": 3, "ratio": 0.5})).Expect(t, http.StatusCreated).Map(t)
	spec := created["spec"].(map[string]any)
	if spec["replicas"] != float64(3) || spec["ratio"] != 0.5 || created["kind"] != kind {
		t.Fatalf("created %v", created)
	}
	s.Do(t, "POST", base, object(kind, "a", nil, nil)).ExpectStatus(t, http.StatusConflict, "AlreadyExists")
	gen := object(kind, "", map[string]any{"tier": "back"}, map[string]any{"replicas": 1})
	meta(gen)["generateName"] = "gen-"
	genName := meta(s.Do(t, "POST", base, gen).Expect(t, http.StatusCreated).Map(t))["name"].(string)
	if !strings.HasPrefix(genName, "gen-") || len(genName) != len("gen-")+5 {
		t.Errorf("generated name %q", genName)
	}
	// dry run stores nothing.
	s.Do(t, "POST", base+"?dryRun=All", object(kind, "dry", nil, nil)).Expect(t, http.StatusCreated)
	s.Do(t, "GET", base+"/dry", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")

	// get, list with selectors and chunks.
	got := s.Do(t, "GET", base+"/a", nil).Expect(t, http.StatusOK).Map(t)
	rv := meta(got)["resourceVersion"].(string)
	if got["apiVersion"] != "stable.example.com/v1" || rv == "" || meta(got)["uid"] == "" {
		t.Fatalf("got %v", got)
	}
	if names := items(t, s.Do(t, "GET", base+"?labelSelector=tier%3Dfront", nil).Expect(t, http.StatusOK).Map(t)); fmt.Sprint(names) != "[a]" {
		t.Errorf("label selector listed %v", names)
	}
	if names := items(t, s.Do(t, "GET", base+"?fieldSelector=metadata.name%3D"+genName, nil).Expect(t, http.StatusOK).Map(t)); fmt.Sprint(names) != "["+genName+"]" {
		t.Errorf("field selector listed %v", names)
	}
	s.Do(t, "GET", base+"?fieldSelector=spec.replicas%3D3", nil).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
	first := s.Do(t, "GET", base+"?limit=1", nil).Expect(t, http.StatusOK).Map(t)
	cont, _ := meta(first)["continue"].(string)
	if len(items(t, first)) != 1 || cont == "" {
		t.Fatalf("first chunk %v", first)
	}
	second := s.Do(t, "GET", base+"?limit=1&continue="+cont, nil).Expect(t, http.StatusOK).Map(t)
	if len(items(t, second)) != 1 || items(t, second)[0] == items(t, first)[0] {
		t.Errorf("second chunk %v after %v", items(t, second), items(t, first))
	}

	// watch from the list's version sees the changes that follow.
	listRV := meta(s.Do(t, "GET", base, nil).Expect(t, http.StatusOK).Map(t))["resourceVersion"].(string)
	events := watch(t, s, base+"?watch=true&allowWatchBookmarks=true&resourceVersion="+listRV)

	// update with optimistic locking.
	got["spec"] = map[string]any{"replicas": 4}
	updated := s.Do(t, "PUT", base+"/a", got).Expect(t, http.StatusOK).Map(t)
	if meta(updated)["generation"] != float64(2) {
		t.Errorf("generation after a spec change: %v", meta(updated)["generation"])
	}
	s.Do(t, "PUT", base+"/a", got).ExpectStatus(t, http.StatusConflict, "Conflict")

	// patches: merge and JSON; strategic merge is 415 for custom types.
	patched := s.Do(t, "PATCH", base+"/a", `{"spec":{"color":"blue"}}`, framework.Header{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK).Map(t)
	if patched["spec"].(map[string]any)["color"] != "blue" || patched["spec"].(map[string]any)["replicas"] != float64(4) {
		t.Errorf("merge patch gave %v", patched["spec"])
	}
	patched = s.Do(t, "PATCH", base+"/a", `[{"op":"replace","path":"/spec/replicas","value":5}]`, framework.Header{"Content-Type": "application/json-patch+json"}).Expect(t, http.StatusOK).Map(t)
	if patched["spec"].(map[string]any)["replicas"] != float64(5) {
		t.Errorf("json patch gave %v", patched["spec"])
	}
	s.Do(t, "PATCH", base+"/a", `{"spec":{"x":1}}`, framework.Header{"Content-Type": "application/strategic-merge-patch+json"}).ExpectStatus(t, http.StatusUnsupportedMediaType, "UnsupportedMediaType")

	// a finalizer holds a delete until it is removed.
	s.Do(t, "PATCH", base+"/a", `{"metadata":{"finalizers":["example.com/hold"]}}`, framework.Header{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK)
	held := s.Do(t, "DELETE", base+"/a", nil).Expect(t, http.StatusOK).Map(t)
	if meta(held)["deletionTimestamp"] == nil {
		t.Fatalf("delete with a finalizer: %v", held)
	}
	s.Do(t, "PATCH", base+"/a", `{"metadata":{"finalizers":null}}`, framework.Header{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK)
	s.Do(t, "GET", base+"/a", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")

	// Replace, two patches, the finalizer added, the deletion started,
	// the finalizer removed: six modifications, then the deletion.
	var seen []string
	for len(seen) == 0 || seen[len(seen)-1] != "DELETED a" {
		select {
		case e := <-events:
			seen = append(seen, e)
		case <-time.After(10 * time.Second):
			t.Fatalf("watch saw %v, then nothing", seen)
		}
	}
	if want := "[MODIFIED a MODIFIED a MODIFIED a MODIFIED a MODIFIED a MODIFIED a DELETED a]"; fmt.Sprint(seen) != want {
		t.Errorf("watch saw %v, want %s", seen, want)
	}

	// deletecollection removes the rest.
	s.Do(t, "DELETE", base, nil).Expect(t, http.StatusOK)
	if names := items(t, s.Do(t, "GET", base, nil).Expect(t, http.StatusOK).Map(t)); len(names) != 0 {
		t.Errorf("left after deletecollection: %v", names)
	}
}

// watch streams a watch's events as "TYPE name" (bookmarks left out).
func watch(t *testing.T, s *framework.Server, path string) <-chan string {
	t.Helper()
	req, err := http.NewRequest("GET", s.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("watch: HTTP %d", resp.StatusCode)
	}
	t.Cleanup(func() { resp.Body.Close() })
	out := make(chan string, 100)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var e struct {
				Type   string         `json:"type"`
				Object map[string]any `json:"object"`
			}
			if json.Unmarshal(sc.Bytes(), &e) != nil || e.Type == "BOOKMARK" {
				continue
			}
			out <- e.Type + " " + meta(e.Object)["name"].(string)
		}
	}()
	return out
}
