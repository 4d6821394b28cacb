package informer

import (
	"slices"
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"
)

func onNode(ns, name, node string) *corev1.Pod {
	p := pod(ns, name, nil)
	p.Spec.NodeName = node
	return p
}

func byNode(p *corev1.Pod) []string {
	if p.Spec.NodeName == "" {
		return nil
	}
	return []string{p.Spec.NodeName}
}

func TestStore(t *testing.T) {
	type op func(s *Store[*corev1.Pod])
	add := func(p *corev1.Pod) op { return func(s *Store[*corev1.Pod]) { s.Add(p) } }
	upd := func(p *corev1.Pod) op { return func(s *Store[*corev1.Pod]) { s.Update(p) } }
	del := func(p *corev1.Pod) op { return func(s *Store[*corev1.Pod]) { s.Delete(p) } }
	replace := func(ps ...*corev1.Pod) op { return func(s *Store[*corev1.Pod]) { s.Replace(ps, "7") } }
	cases := []struct {
		name     string
		ops      []op
		keys     string            // sorted, comma-separated
		byIndex  map[string]string // "index=value" -> sorted keys
		cluster  bool
		nilIsNop bool
	}{
		{"add and namespace index", []op{add(onNode("a", "x", "n1")), add(onNode("b", "x", "n1")), add(onNode("", "c", ""))},
			"a/x,b/x,c", map[string]string{"namespace=a": "a/x", "namespace=": "c", "node=n1": "a/x,b/x"}, false, false},
		{"update moves index value", []op{add(onNode("a", "x", "n1")), upd(onNode("a", "x", "n2"))},
			"a/x", map[string]string{"node=n1": "", "node=n2": "a/x"}, false, false},
		{"delete unfiles", []op{add(onNode("a", "x", "n1")), add(onNode("a", "y", "n1")), del(pod("a", "x", nil))},
			"a/y", map[string]string{"node=n1": "a/y", "namespace=a": "a/y"}, false, false},
		{"delete of absent key", []op{del(pod("a", "x", nil))}, "", nil, false, false},
		{"replace rebuilds", []op{add(onNode("a", "x", "n1")), replace(onNode("a", "y", "n2"), onNode("b", "z", "n2"))},
			"a/y,b/z", map[string]string{"node=n1": "", "node=n2": "a/y,b/z", "namespace=a": "a/y"}, false, false},
		{"nil objects ignored", []op{add(nil), replace(nil, onNode("a", "x", ""))}, "a/x", nil, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore[*corev1.Pod]()
			if err := s.AddIndexers(Indexers[*corev1.Pod]{"node": byNode}); err != nil {
				t.Fatal(err)
			}
			for _, o := range tc.ops {
				o(s)
			}
			keys := s.ListKeys()
			slices.Sort(keys)
			if got := strings.Join(keys, ","); got != tc.keys {
				t.Errorf("keys %q, want %q", got, tc.keys)
			}
			if len(s.List()) != s.Len() || s.Len() != len(keys) {
				t.Errorf("List/Len/ListKeys disagree")
			}
			for q, want := range tc.byIndex {
				name, value, _ := strings.Cut(q, "=")
				objs, err := s.ByIndex(name, value)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, o := range objs {
					got = append(got, Key(o))
				}
				slices.Sort(got)
				if strings.Join(got, ",") != want {
					t.Errorf("ByIndex(%s) = %q, want %q", q, got, want)
				}
			}
		})
	}
}

func TestStoreIndexErrors(t *testing.T) {
	s := NewStore[*corev1.Pod]()
	s.Add(onNode("a", "x", "n1"))
	if err := s.AddIndexers(Indexers[*corev1.Pod]{NamespaceIndex: byNode}); err == nil {
		t.Error("replacing the namespace index succeeded")
	}
	if _, err := s.ByIndex("node", "n1"); err == nil {
		t.Error("ByIndex on an unknown index succeeded")
	}
	if err := s.AddIndexers(Indexers[*corev1.Pod]{"node": byNode}); err != nil {
		t.Fatal(err)
	}
	if objs, _ := s.ByIndex("node", "n1"); len(objs) != 1 {
		t.Errorf("index added late did not file the existing object")
	}
	if p, ok := s.Get("a/x"); !ok || p.Name != "x" {
		t.Errorf("Get(a/x) = %v, %v", p, ok)
	}
	if s.ResourceVersion() != "" {
		t.Errorf("resourceVersion before any Replace: %q", s.ResourceVersion())
	}
}
