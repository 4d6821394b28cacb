package patch

import (
	"reflect"
	"sync"
	"testing"
	"time"
)

func TestSchemaLookup(t *testing.T) {
	pod := schemaFor(podType)
	spec := pod.lookup("spec").schema()
	containers := spec.lookup("containers")
	cases := []struct {
		name string
		got  *field
		want field // node is not compared
		nil  bool
	}{
		{name: "inlined kind", got: pod.lookup("kind"), want: field{}},
		{name: "merge list", got: containers, want: field{merge: true, mergeKey: "name"}},
		{name: "merge,retainKeys list", got: spec.lookup("volumes"), want: field{merge: true, mergeKey: "name"}},
		{name: "replace struct", got: spec.lookup("affinity"), want: field{replace: true}},
		{name: "untagged list", got: spec.lookup("tolerations"), want: field{}},
		{name: "promoted through embedded pointer", got: spec.lookup("gates"), want: field{merge: true}},
		{name: "nested merge list", got: containers.elem().schema().lookup("ports"), want: field{merge: true, mergeKey: "containerPort"}},
		{name: "map value", got: pod.lookup("metadata").schema().lookup("labels").schema().lookup("anything"), want: field{}},
		{name: "pointer struct", got: pod.lookup("status").schema().lookup("conditions"), want: field{merge: true, mergeKey: "type"}},
		{name: "unknown key", got: pod.lookup("nope"), nil: true},
		{name: "unexported embedded type name is not a key", got: spec.lookup("tSpecExtras"), nil: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.nil {
				if c.got != nil {
					t.Fatalf("want no field, got %+v", c.got)
				}
				return
			}
			if c.got == nil {
				t.Fatal("field not found")
			}
			got := *c.got
			got.node = nil
			if got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestSchemaOpaqueTypes(t *testing.T) {
	pod := schemaFor(podType)
	meta := pod.lookup("metadata").schema()
	if n := meta.lookup("creationTimestamp").schema(); n != nil {
		t.Errorf("time.Time should be opaque, got %+v", n)
	}
	if n := pod.lookup("extra").schema(); n != nil {
		t.Errorf("embedded RawMessage should make the type opaque, got %+v", n)
	}
	res := pod.lookup("spec").schema().lookup("containers").elem().schema().lookup("resources")
	if res == nil || res.schema() == nil || res.schema().item.schema() != nil {
		t.Errorf("map of self-marshaling values should have opaque values")
	}
	for _, typ := range []reflect.Type{reflect.TypeOf(time.Time{}), reflect.TypeOf([]byte(nil)), reflect.TypeOf(0), nil} {
		if n := schemaFor(typ); n != nil {
			t.Errorf("%v: want nil node, got %+v", typ, n)
		}
	}
}

func TestSchemaRecursiveAndTags(t *testing.T) {
	n := schemaFor(reflect.TypeOf(&tNode{}))
	children := n.lookup("children")
	if !children.merges() || children.key() != "name" || children.elem().schema() != n {
		t.Fatalf("recursive list should point back at the same node: %+v", children)
	}
	if n.lookup("parent").schema() != n {
		t.Fatal("recursive pointer should point back at the same node")
	}
	for _, missing := range []string{"Skipped", "hidden", "-,"} {
		if n.lookup(missing) != nil {
			t.Errorf("%q should not be a field", missing)
		}
	}
	for _, present := range []string{"-", "Plain"} {
		if n.lookup(present) == nil {
			t.Errorf("%q should be a field", present)
		}
	}
}

func TestSchemaConcurrent(t *testing.T) {
	type fresh struct {
		L []tEnv `json:"l" patchStrategy:"merge" patchMergeKey:"name"`
	}
	var wg sync.WaitGroup
	nodes := make([]*node, 16)
	for i := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nodes[i] = schemaFor(reflect.TypeOf(fresh{}))
		}()
	}
	wg.Wait()
	for _, n := range nodes {
		if n != nodes[0] || n.lookup("l").key() != "name" {
			t.Fatal("concurrent builds should share one cached node")
		}
	}
}
