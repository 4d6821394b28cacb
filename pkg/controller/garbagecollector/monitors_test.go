package garbagecollector

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"

	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/discovery"
	"platform.io/client/rest"
)

func discovered(group, name, kind string, verbs ...string) discovery.Resource {
	return discovery.Resource{Resource: client.Resource{Group: group, Version: "v1", Name: name, Kind: kind, Namespaced: true},
		Verbs: verbs, Preferred: true}
}

// TestMonitorsFollowDiscovery: each discovery decides the catalog and the
// monitors: a new watchable resource gets one, a resource gone loses its
// monitor and its objects are handed to the workers; events and
// create-only resources are not watched.
func TestMonitorsFollowDiscovery(t *testing.T) {
	rc, err := rest.NewClient(&rest.Config{Host: "http://127.0.0.1:1", QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	var rec recorded
	cat := &catalog{}
	mons := &monitors{lg: zap.NewNop(), typed: map[meta.GroupResource]ops{}, dyn: client.NewDynamic(rc), cat: cat,
		running: map[meta.GroupResource]*monitor{}}
	mons.g = newGraph(cat.scope, rec.queues(), 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); mons.wait() }()
	all := []string{"delete", "get", "list", "watch"}
	widgets := discovered("example.com", "widgets", "Widget", all...)
	gadgets := discovered("example.com", "gadgets", "Gadget", all...)
	events := discovered("", "events", "Event", all...)
	bindings := discovered("", "bindings", "Binding", "create")
	readOnly := discovered("example.com", "readonly", "ReadOnly", "get", "list", "watch")
	names := func(ms []*monitor) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.gk.Kind)
		}
		return out
	}
	steps := []struct {
		name      string
		resources []discovery.Resource
		added     []string
		dropped   []meta.GroupResource
		known     []string // kinds in the catalog
		running   int
	}{
		{"first", []discovery.Resource{widgets, events, bindings, readOnly}, []string{"Widget"}, nil, []string{"Event", "ReadOnly", "Widget"}, 1},
		{"a definition added", []discovery.Resource{widgets, gadgets, events}, []string{"Gadget"}, nil, []string{"Event", "Gadget", "Widget"}, 2},
		{"unchanged", []discovery.Resource{widgets, gadgets, events}, nil, nil, []string{"Event", "Gadget", "Widget"}, 2},
		{"a definition removed", []discovery.Resource{gadgets, events}, nil, []meta.GroupResource{widgets.GroupResource()}, []string{"Event", "Gadget"}, 1},
	}
	for _, st := range steps {
		if st.name == "a definition removed" {
			mons.g.process(change{res: resourceInfo{APIVersion: "example.com/v1", Kind: "Widget", Namespaced: true}, obj: obj("w", "w1")})
			mons.g.process(change{res: resourceInfo{APIVersion: "example.com/v1", Kind: "Gadget", Namespaced: true}, obj: obj("g", "g1")})
			rec = recorded{}
		}
		added, dropped := mons.sync(ctx, discovery.Snapshot{Resources: st.resources})
		if diff := cmp.Diff(st.added, names(added)); diff != "" {
			t.Errorf("%s: added (-want +got):\n%s", st.name, diff)
		}
		if diff := cmp.Diff(st.dropped, dropped); diff != "" {
			t.Errorf("%s: dropped (-want +got):\n%s", st.name, diff)
		}
		for _, k := range []string{"Event", "Gadget", "ReadOnly", "Widget", "Binding"} {
			group := "example.com"
			if k == "Event" || k == "Binding" {
				group = ""
			}
			_, ok := cat.get(groupKind{group, k})
			want := false
			for _, w := range st.known {
				want = want || w == k
			}
			if ok != want {
				t.Errorf("%s: %s in the catalog %v, want %v", st.name, k, ok, want)
			}
		}
		if len(mons.running) != st.running {
			t.Errorf("%s: %d monitors running, want %d", st.name, len(mons.running), st.running)
		}
	}
	if diff := cmp.Diff([]meta.UID{"w1"}, rec.delete); diff != "" {
		t.Errorf("objects handed to the workers when their kind went (-want +got):\n%s", diff)
	}
}
