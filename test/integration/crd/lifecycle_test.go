package crd

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// TestDiscoveryAndDeletion: an established type appears in every discovery
// document; deleting its definition deletes its objects first (one held
// by a finalizer keeps the type served, and new objects are refused),
// then the type leaves discovery and its URLs answer 404.
func TestDiscoveryAndDeletion(t *testing.T) {
	s := framework.Start(t)
	install(t, s, definition("fruit.example.com", "apples", "Apple", "Namespaced", "ap"))

	groups := s.Do(t, "GET", "/apis", nil).Expect(t, http.StatusOK).Map(t)
	if !strings.Contains(string(mustJSON(t, groups)), `"name":"fruit.example.com"`) {
		t.Errorf("/apis lacks the group: %s", mustJSON(t, groups))
	}
	group := s.Do(t, "GET", "/apis/fruit.example.com", nil).Expect(t, http.StatusOK).Map(t)
	if group["preferredVersion"].(map[string]any)["version"] != "v1" {
		t.Errorf("/apis/fruit.example.com: %v", group)
	}
	list := s.Do(t, "GET", "/apis/fruit.example.com/v1", nil).Expect(t, http.StatusOK)
	for _, want := range []string{`"name":"apples"`, `"singularName":"apple"`, `"namespaced":true`, `"kind":"Apple"`, `"shortNames":["ap"]`, `"deletecollection"`} {
		if !strings.Contains(string(list.Body), want) {
			t.Errorf("resource list lacks %s: %s", want, list.Body)
		}
	}

	base := "/apis/fruit.example.com/v1/namespaces/default/apples"
	for _, name := range []string{"a", "b", "c"} {
		s.Do(t, "POST", base, map[string]any{"apiVersion": "fruit.example.com/v1", "kind": "Apple", "metadata": map[string]any{"name": name}}).Expect(t, http.StatusCreated)
	}
	held := map[string]any{"apiVersion": "fruit.example.com/v1", "kind": "Apple", "metadata": map[string]any{"name": "held", "finalizers": []string{"example.com/hold"}}}
	s.Do(t, "POST", base, held).Expect(t, http.StatusCreated)

	events := watch(t, s, base+"?watch=true")
	s.Do(t, "DELETE", crdsPath+"/apples.fruit.example.com", nil).Expect(t, http.StatusOK)
	framework.Eventually(t, 10*time.Second, "the free objects deleted", func() bool {
		l := s.Do(t, "GET", base, nil)
		return l.Code == http.StatusOK && len(items(t, l.Map(t))) == 1
	})
	crd := s.Do(t, "GET", crdsPath+"/apples.fruit.example.com", nil).Expect(t, http.StatusOK).Map(t)
	if condition(t, crd, "Terminating") != "True" || !strings.Contains(string(mustJSON(t, meta(crd)["finalizers"])), "customresourcecleanup.apiextensions.k8s.io") {
		t.Errorf("definition being deleted: %s", mustJSON(t, crd))
	}
	s.Do(t, "POST", base, map[string]any{"apiVersion": "fruit.example.com/v1", "kind": "Apple", "metadata": map[string]any{"name": "late"}}).
		ExpectStatus(t, http.StatusMethodNotAllowed, "MethodNotAllowed")

	s.Do(t, "PATCH", base+"/held", `{"metadata":{"finalizers":null}}`, framework.Header{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK)
	framework.Eventually(t, 10*time.Second, "the definition gone", func() bool {
		return s.Do(t, "GET", crdsPath+"/apples.fruit.example.com", nil).Code == http.StatusNotFound
	})
	framework.Eventually(t, 10*time.Second, "the type gone from discovery", func() bool {
		return s.Do(t, "GET", "/apis/fruit.example.com/v1", nil).Code == http.StatusNotFound &&
			!strings.Contains(string(s.Do(t, "GET", "/apis", nil).Body), "fruit.example.com")
	})
	s.Do(t, "GET", base, nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
	// A watch of the type ends with it, after the deletions it saw.
	deleted := 0
	for done := false; !done; {
		select {
		case e, ok := <-events:
			done = !ok
			if strings.HasPrefix(e, "DELETED") {
				deleted++
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a watch of the removed type is still open")
		}
	}
	if deleted != 4 {
		t.Errorf("the watch saw %d deletions, want 4", deleted)
	}

	// The same definition again starts empty.
	install(t, s, definition("fruit.example.com", "apples", "Apple", "Namespaced", "ap"))
	if names := items(t, s.Do(t, "GET", base, nil).Expect(t, http.StatusOK).Map(t)); len(names) != 0 {
		t.Errorf("a recreated type lists %v", names)
	}
}

// TestContentNegotiation: custom objects have no protobuf form, so a
// client that accepts only protobuf gets 406, and one that also accepts
// JSON gets JSON, as the spec says; a protobuf body is 415.
func TestContentNegotiation(t *testing.T) {
	s := framework.Start(t)
	install(t, s, definition("fruit.example.com", "pears", "Pear", "Cluster"))
	base := "/apis/fruit.example.com/v1/pears"
	s.Do(t, "POST", base, map[string]any{"apiVersion": "fruit.example.com/v1", "kind": "Pear", "metadata": map[string]any{"name": "p"}}).Expect(t, http.StatusCreated)
	for _, accept := range []string{"application/vnd.kubernetes.protobuf", "application/vnd.platform.protobuf"} {
		s.Do(t, "GET", base+"/p", nil, framework.Header{"Accept": accept}).ExpectStatus(t, http.StatusNotAcceptable, "NotAcceptable")
		s.Do(t, "GET", base, nil, framework.Header{"Accept": accept}).ExpectStatus(t, http.StatusNotAcceptable, "NotAcceptable")
	}
	for _, path := range []string{base + "/p", base} {
		r := s.Do(t, "GET", path, nil, framework.Header{"Accept": "application/vnd.kubernetes.protobuf, application/json"}).Expect(t, http.StatusOK)
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s answered %s", path, ct)
		}
	}
	s.Do(t, "POST", base, "k8s\x00junk", framework.Header{"Content-Type": "application/vnd.kubernetes.protobuf"}).
		ExpectStatus(t, http.StatusUnsupportedMediaType, "UnsupportedMediaType")
	// The definitions themselves are built-in objects with protobuf.
	r := s.Do(t, "GET", crdsPath+"/pears.fruit.example.com", nil, framework.Header{"Accept": "application/vnd.kubernetes.protobuf"}).Expect(t, http.StatusOK)
	if !strings.HasPrefix(string(r.Body), "k8s\x00") {
		t.Errorf("the definition in protobuf: %q", r.Body[:min(len(r.Body), 20)])
	}
}
