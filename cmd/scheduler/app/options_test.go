package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/scheduler/plugins"
	"platform.io/platform/pkg/scheduler/runtime"
)

func TestLoadFileFillsSharedOptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	data := `apiVersion: scheduler.config.platform.io/v1
kind: SchedulerConfiguration
percentageOfNodesToScore: 20
leaderElection: {leaderElect: false, leaseDuration: 30s, resourceName: other}
clientConnection: {kubeconfig: /etc/k, qps: 70, burst: 140}
profiles:
- schedulerName: one
- schedulerName: two
`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	o := NewOptions()
	shared := options.New(options.SchedulerDefaults(), nil)
	if err := o.LoadFile(path, shared); err != nil {
		t.Fatal(err)
	}
	le, g := shared.LeaderElection, shared.Generic
	if le.LeaderElect || le.LeaseDuration != 30*time.Second || le.ResourceName != "other" || le.RenewDeadline != 10*time.Second {
		t.Errorf("leader election: %+v", le)
	}
	if g.Kubeconfig != "/etc/k" || g.QPS != 70 || g.Burst != 140 {
		t.Errorf("client: %+v", g)
	}
	o.SchedulerName = "ignored"
	c := o.Configuration()
	var names []string
	for _, p := range c.Profiles {
		names = append(names, p.SchedulerName)
	}
	if diff := cmp.Diff([]string{"one", "two"}, names); diff != "" {
		t.Errorf("profiles (-want +got):\n%s", diff)
	}
	if *c.PercentageOfNodesToScore != 20 {
		t.Errorf("percentage %d", *c.PercentageOfNodesToScore)
	}
}

func TestSchedulerNameRenamesDefaultProfile(t *testing.T) {
	o := NewOptions()
	o.SchedulerName = "custom"
	c := o.Configuration()
	if len(c.Profiles) != 1 || c.Profiles[0].SchedulerName != "custom" {
		t.Errorf("profiles: %+v", c.Profiles)
	}
}

func TestLoadFileErrorsNameTheField(t *testing.T) {
	tests := []struct{ name, file, want string }{
		{"unknown plugin", "profiles: [{schedulerName: a, plugins: {filter: {enabled: [{name: Nope}]}}}]", `profiles[0].plugins.filter.enabled[0].name: unknown plugin "Nope"`},
		{"unknown field", "bogus: 1", `unknown field "bogus"`},
		{"bad duration", "leaderElection: {leaseDuration: soon}", "soon"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.yaml")
			head := "apiVersion: scheduler.config.platform.io/v1\nkind: SchedulerConfiguration\n"
			if err := os.WriteFile(path, []byte(head+tc.file+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			err := NewOptions().LoadFile(path, options.New(options.SchedulerDefaults(), nil))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	o := NewOptions()
	if errs := o.Validate(); len(errs) != 0 {
		t.Fatalf("defaults invalid: %v", errs)
	}
	o.HardPodAffinitySymmetricWeight, o.Port, o.Address = 101, 70000, "nowhere"
	errs := o.Validate()
	if len(errs) != 3 {
		t.Fatalf("errors %v, want 3", errs)
	}
	for i, flag := range []string{"--hard-pod-affinity-symmetric-weight", "--port", "--address"} {
		if !strings.HasPrefix(errs[i].Error(), flag) {
			t.Errorf("error %q does not name %s", errs[i], flag)
		}
	}
}

// TestExampleConfig loads deploy/config's example and builds each of
// its profiles with the in-tree plugins.
func TestExampleConfig(t *testing.T) {
	o := NewOptions()
	if err := o.LoadFile("../../../deploy/config/scheduler-config.yaml", options.New(options.SchedulerDefaults(), nil)); err != nil {
		t.Fatal(err)
	}
	c := o.Configuration()
	if len(c.Profiles) != 2 {
		t.Fatalf("profiles: %d", len(c.Profiles))
	}
	for _, p := range c.Profiles {
		f, err := runtime.New(runtime.Options{ProfileName: p.SchedulerName, Registry: plugins.NewRegistry(),
			Plugins: p.Plugins, PluginConfig: p.PluginConfig, Parallelism: 2})
		if err != nil {
			t.Fatalf("profile %s: %v", p.SchedulerName, err)
		}
		t.Logf("%s: %v", p.SchedulerName, f.PluginNames())
	}
}
