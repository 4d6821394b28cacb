package garbagecollector

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	"platform.io/client/client"
	"platform.io/client/discovery"
	"platform.io/client/informer"
	"platform.io/client/rest"

	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/controller"
)

// TestResourceTableCoversServedResources: every served resource has typed
// ops, so a new row in client.Resources without a client here fails this
// test; and every one but events is watched when discovery lists it with
// list, watch and delete.
func TestResourceTableCoversServedResources(t *testing.T) {
	rc, err := rest.NewClient(&rest.Config{Host: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	table, missing := typedTable(client.NewSet(rc), informer.NewFactory(informer.Options{}))
	if len(missing) > 0 {
		t.Fatalf("served resources without ops: %v", missing)
	}
	for _, r := range client.Resources() {
		o, ok := table[r.GroupResource()]
		if !ok || o.info.Namespaced != r.Namespaced || o.info.Kind != r.Kind || !o.shared {
			t.Errorf("%s: ops %v, namespaced %v, kind %s, shared %v", r.GroupResource(), ok, o.info.Namespaced, o.info.Kind, o.shared)
		}
		dr := discovery.Resource{Resource: r, Verbs: []string{"delete", "get", "list", "watch"}}
		if want := r.Name != "events"; watchable(dr) != want {
			t.Errorf("%s: watched %v, want %v", r.GroupResource(), watchable(dr), want)
		}
		dr.Verbs = []string{"delete", "get", "list"}
		if watchable(dr) {
			t.Errorf("%s: watched without the watch verb", r.GroupResource())
		}
	}
}

func TestOptions(t *testing.T) {
	tests := []struct {
		args    []string
		workers int
		enabled bool
		err     string
	}{
		{nil, 20, true, ""},
		{[]string{"--concurrent-gc-syncs=3", "--enable-garbage-collector=false"}, 3, false, ""},
		{[]string{"--concurrent-gc-syncs=0"}, 0, true, "--concurrent-gc-syncs"},
	}
	for _, tc := range tests {
		o := NewOptions()
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		o.AddFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		errs := o.Validate()
		if o.Workers != tc.workers || o.Enabled != tc.enabled {
			t.Errorf("%v: workers %d enabled %v", tc.args, o.Workers, o.Enabled)
		}
		if tc.err == "" && len(errs) > 0 || tc.err != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.err)) {
			t.Errorf("%v: errors %v, want one naming %q", tc.args, errs, tc.err)
		}
	}
}

// TestDisabledWatchesNothing: with --enable-garbage-collector=false the
// loop declares no informer and its Runnable only waits.
func TestDisabledWatchesNothing(t *testing.T) {
	rc, err := rest.NewClient(&rest.Config{Host: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	f := informer.NewFactory(informer.Options{})
	c := controller.Context{Deps: &daemon.Deps{Logger: zap.NewNop(), Clients: client.NewSet(rc), Informers: f}}
	o := NewOptions()
	o.Enabled = false
	r, err := New(c, o)
	if err != nil {
		t.Fatal(err)
	}
	if keys := f.Keys(); len(keys) != 0 {
		t.Errorf("disabled collector declared informers %v", keys)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.Run(ctx); err != nil {
		t.Errorf("Run = %v", err)
	}
	// Enabled, it declares nothing either until it runs: discovery decides
	// what it watches (test/integration/gc covers that).
	o.Enabled = true
	if _, err := New(c, o); err != nil {
		t.Fatal(err)
	}
	if keys := f.Keys(); len(keys) != 0 {
		t.Errorf("collector declared informers %v before discovery", keys)
	}
}
