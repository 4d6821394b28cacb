package apiserver

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// chunk is one page of a chunked list.
type chunk struct {
	names     []string
	rv        string
	cont      string
	remaining any // metadata.remainingItemCount, nil when absent
	data      map[string]any
	body      map[string]any
}

func getChunk(t *testing.T, s *framework.Server, path string) chunk {
	t.Helper()
	names, rv, m := list(t, s, path)
	c := chunk{names: names, rv: rv, data: map[string]any{}, body: m}
	c.cont, _ = get(m, "metadata", "continue").(string)
	c.remaining = get(m, "metadata", "remainingItemCount")
	items, _ := m["items"].([]any)
	for _, it := range items {
		o := it.(map[string]any)
		c.data[metaOf(o)["name"].(string)] = get(o, "data", "k")
	}
	return c
}

// fillChunked creates ConfigMaps c00..c(n-1) in namespace ns.
func fillChunked(t *testing.T, s *framework.Server, ns string, n int) string {
	t.Helper()
	createNamespace(t, s, ns)
	coll := "/api/v1/namespaces/" + ns + "/configmaps"
	for i := 0; i < n; i++ {
		s.Do(t, "POST", coll, cm(fmt.Sprintf("c%02d", i), fmt.Sprintf(`{"even":"%v"}`, i%2 == 0), "0")).Expect(t, http.StatusCreated)
	}
	return coll
}

// readAll follows continue tokens from first to the end; it returns every
// chunk.
func readAll(t *testing.T, s *framework.Server, path string, first chunk) []chunk {
	t.Helper()
	out := []chunk{first}
	for c := first; c.cont != ""; {
		if len(out) > 100 {
			t.Fatal("more than 100 chunks")
		}
		c = getChunk(t, s, path+"&continue="+c.cont)
		out = append(out, c)
	}
	return out
}

func names(cs []chunk) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.names...)
	}
	return out
}

// TestChunkedLists_1_LimitAndContinue: a list with limit returns at most
// that many items with a non-empty continue while more exist, and
// remainingItemCount when it is known (an unfiltered list).
func TestChunkedLists_1_LimitAndContinue(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		coll := fillChunked(t, s, "ch1", 10)
		c := getChunk(t, s, coll+"?limit=3")
		if strings.Join(c.names, ",") != "c00,c01,c02" || c.cont == "" {
			t.Fatalf("first chunk: %v continue %q", c.names, c.cont)
		}
		if fmt.Sprint(c.remaining) != "7" {
			t.Fatalf("remainingItemCount %v, want 7", c.remaining)
		}
		if c.body["kind"] != "ConfigMapList" {
			t.Fatalf("kind %v", c.body["kind"])
		}
		// limit at least the size: everything, no continue.
		for _, l := range []string{"10", "11", "500"} {
			c := getChunk(t, s, coll+"?limit="+l)
			if len(c.names) != 10 || c.cont != "" || (c.remaining != nil && fmt.Sprint(c.remaining) != "0") {
				t.Fatalf("limit %s: %d items, continue %q, remainingItemCount %v", l, len(c.names), c.cont, c.remaining)
			}
		}
		// Across namespaces too.
		c = getChunk(t, s, "/api/v1/configmaps?limit=4")
		if len(c.names) != 4 || c.cont == "" {
			t.Fatalf("all-namespaces chunk: %v continue %q", c.names, c.cont)
		}
	})
}

// TestChunkedLists_2_RepeatUntilContinueEmpty: repeating the query with
// each continue token returns every object once, in order, and the last
// chunk has an empty continue.
func TestChunkedLists_2_RepeatUntilContinueEmpty(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		coll := fillChunked(t, s, "ch2", 10)
		cs := readAll(t, s, coll+"?limit=3", getChunk(t, s, coll+"?limit=3"))
		var want []string
		for i := 0; i < 10; i++ {
			want = append(want, fmt.Sprintf("c%02d", i))
		}
		if got := names(cs); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("chunks gave %v, want %v", got, want)
		}
		if len(cs) != 4 {
			t.Fatalf("%d chunks of limit 3 for 10 objects", len(cs))
		}
		for i, c := range cs[:3] {
			if len(c.names) != 3 || fmt.Sprint(c.remaining) != fmt.Sprint(10-3*(i+1)) {
				t.Fatalf("chunk %d: %v, remainingItemCount %v", i, c.names, c.remaining)
			}
		}
		if last := cs[3]; last.cont != "" || last.remaining != nil {
			t.Fatalf("last chunk: continue %q remainingItemCount %v", last.cont, last.remaining)
		}
		// Across namespaces, the chunks add up to the full list.
		all, _, _ := list(t, s, "/api/v1/configmaps")
		allCs := readAll(t, s, "/api/v1/configmaps?limit=4", getChunk(t, s, "/api/v1/configmaps?limit=4"))
		if len(names(allCs)) != len(all) {
			t.Fatalf("all-namespaces chunks: %d items, list %d", len(names(allCs)), len(all))
		}
	})
}

// TestChunkedLists_3_OneSnapshot: all chunks show the snapshot of the first
// call: same resourceVersion; objects created, changed or deleted after it
// appear as they were.
func TestChunkedLists_3_OneSnapshot(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		coll := fillChunked(t, s, "ch3", 10)
		first := getChunk(t, s, coll+"?limit=3")
		s.Do(t, "PATCH", coll+"/c05", `{"data":{"k":"changed"}}`, mergePatch).Expect(t, http.StatusOK)
		s.Do(t, "DELETE", coll+"/c06", nil).Expect(t, http.StatusOK)
		s.Do(t, "POST", coll, cm("c05a", "", "new")).Expect(t, http.StatusCreated)
		s.Do(t, "POST", coll, cm("c99", "", "new")).Expect(t, http.StatusCreated)
		s.Do(t, "DELETE", coll+"/c01", nil).Expect(t, http.StatusOK)
		cs := readAll(t, s, coll+"?limit=3", first)
		var want []string
		for i := 0; i < 10; i++ {
			want = append(want, fmt.Sprintf("c%02d", i))
		}
		if got := names(cs); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("chunks gave %v, want the snapshot %v", got, want)
		}
		for _, c := range cs {
			if c.rv != first.rv {
				t.Fatalf("chunk resourceVersion %s, first chunk %s", c.rv, first.rv)
			}
			if v, ok := c.data["c05"]; ok && v != "0" {
				t.Fatalf("c05 shows the later change %v", v)
			}
		}
		// A fresh list sees the changes.
		got, _, _ := list(t, s, coll)
		if !sameNames(got, []string{"c00", "c02", "c03", "c04", "c05", "c05a", "c07", "c08", "c09", "c99"}) {
			t.Fatalf("fresh list %v", got)
		}
	})
}

// TestChunkedLists_4_FewerItemsWhenFiltered: with a selector a chunk may
// hold fewer items than limit (even none); continue alone says whether more
// remain, and the chunks add up to the filtered list.
func TestChunkedLists_4_FewerItemsWhenFiltered(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		coll := fillChunked(t, s, "ch4", 11)
		for _, l := range []string{"1", "2", "4"} {
			path := coll + q("labelSelector", "even=true", "limit", l)
			cs := readAll(t, s, path, getChunk(t, s, path))
			for _, c := range cs {
				if len(c.names) > int(atoi(t, l)) || c.rv != cs[0].rv {
					t.Fatalf("limit %s: chunk %v at %s (first at %s)", l, c.names, c.rv, cs[0].rv)
				}
				if c.remaining != nil && c.cont == "" {
					t.Fatalf("limit %s: remainingItemCount %v on the last chunk", l, c.remaining)
				}
			}
			if got := names(cs); strings.Join(got, ",") != "c00,c02,c04,c06,c08,c10" {
				t.Fatalf("limit %s: filtered chunks gave %v", l, got)
			}
		}
		// A selector matching nothing: an empty list, no continue.
		c := getChunk(t, s, coll+q("labelSelector", "even=maybe", "limit", "3"))
		if len(c.names) != 0 || c.cont != "" {
			t.Fatalf("selector matching nothing: %v continue %q", c.names, c.cont)
		}
		// A field selector with limit.
		path := coll + q("fieldSelector", "metadata.name!=c01", "limit", "5")
		if got := names(readAll(t, s, path, getChunk(t, s, path))); len(got) != 10 {
			t.Fatalf("fieldSelector chunks: %v", got)
		}
	})
}

// TestChunkedLists_6_WatchFromListVersionMissesNothing: after the final
// chunk, a watch from the list's resourceVersion sees every change made
// since the first chunk.
func TestChunkedLists_6_WatchFromListVersionMissesNothing(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		coll := fillChunked(t, s, "ch6", 7)
		first := getChunk(t, s, coll+"?limit=3")
		s.Do(t, "POST", coll, cm("c20", "", "1")).Expect(t, http.StatusCreated)
		s.Do(t, "PATCH", coll+"/c01", `{"data":{"k":"2"}}`, mergePatch).Expect(t, http.StatusOK)
		second := getChunk(t, s, coll+"?limit=3&continue="+first.cont)
		s.Do(t, "DELETE", coll+"/c05", nil).Expect(t, http.StatusOK)
		cs := readAll(t, s, coll+"?limit=3", second)
		if got := append(first.names, names(cs)...); len(got) != 7 {
			t.Fatalf("chunks: %v", got)
		}
		w := mustWatch(t, s, coll+q("watch", "true", "resourceVersion", first.rv))
		w.Expect("ADDED", "c20")
		w.Expect("MODIFIED", "c01")
		w.Expect("DELETED", "c05")
		w.ExpectNothing(300 * time.Millisecond)
	})
}

// TestChunkedLists_MalformedContinue_BadRequest: a continue token that is
// not one the server issued is a 400.
func TestChunkedLists_MalformedContinue_BadRequest(t *testing.T) {
	t.Parallel()
	s := framework.Start(t)
	coll := fillChunked(t, s, "chm", 3)
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	good := getChunk(t, s, coll+"?limit=1").cont
	for _, tok := range []string{
		"!!!",
		"not-a-token",
		enc("not json"),
		enc(`{}`),
		enc(`[1,2]`),
		good[:len(good)/2],
		good + "garbage!",
		enc(`{"v":"meta.platform.io/v1","rv":-5,"start":"c01"}`),
	} {
		r := s.Do(t, "GET", coll+q("limit", "1", "continue", tok), nil)
		if r.Code != http.StatusBadRequest {
			t.Errorf("continue %q: HTTP %d, want 400; body %.300s", tok, r.Code, r.Body)
		}
	}
}
