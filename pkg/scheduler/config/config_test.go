package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func known(name string) bool {
	for _, p := range DefaultPlugins().MultiPoint.Enabled {
		if p.Name == name {
			return true
		}
	}
	return false
}

func TestDecodeAndValidate(t *testing.T) {
	head := "apiVersion: scheduler.config.platform.io/v1\nkind: SchedulerConfiguration\n"
	tests := []struct {
		name string
		file string
		// want are substrings, one per expected error; none for a valid file
		want []string
	}{
		{"minimal", head, nil},
		{"full", head + `
parallelism: 8
percentageOfNodesToScore: 30
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
leaderElection: {leaderElect: true, leaseDuration: 20s, renewDeadline: 15s, retryPeriod: 3s, resourceLock: leases, resourceName: s, resourceNamespace: ns}
clientConnection: {kubeconfig: /k, qps: 100, burst: 200, contentType: application/json}
profiles:
- schedulerName: default-scheduler
- schedulerName: spread
  plugins:
    score:
      enabled: [{name: PodTopologySpread, weight: 50}]
      disabled: [{name: "*"}]
  pluginConfig:
  - name: PodTopologySpread
    args: {defaultingType: List}
`, nil},
		{"json works too", `{"apiVersion":"scheduler.config.platform.io/v1","kind":"SchedulerConfiguration","percentageOfNodesToScore":10}`, nil},
		{"wrong apiVersion", "apiVersion: v1\nkind: SchedulerConfiguration\n", []string{`apiVersion: "v1" is not`}},
		{"wrong kind", "apiVersion: scheduler.config.platform.io/v1\nkind: Config\n", []string{`kind: "Config" is not`}},
		{"unknown field", head + "percentage: 3\n", []string{`unknown field "percentage"`}},
		{"unknown nested field", head + "profiles:\n- schedulerName: a\n  plugin: {}\n", []string{`unknown field "plugin"`}},
		{"empty", "", []string{"empty"}},
		{"bad values", head + `
parallelism: 0
percentageOfNodesToScore: 101
podInitialBackoffSeconds: 5
podMaxBackoffSeconds: 2
`, []string{"parallelism: 0", "percentageOfNodesToScore: 101", "podMaxBackoffSeconds: 2 must be at least"}},
		{"profiles", head + `
profiles:
- schedulerName: a
  plugins:
    filter:
      enabled: [{name: Bogus}]
      disabled: [{name: AlsoBogus}]
    score:
      enabled: [{name: NodeAffinity, weight: 101}, {name: ImageLocality, weight: -1}]
  pluginConfig: [{name: NodeAffinity}, {name: NodeAffinity}, {name: Nope}]
- schedulerName: a
- schedulerName: ""
`, []string{
			`profiles[0].plugins.filter.enabled[0].name: unknown plugin "Bogus"`,
			`profiles[0].plugins.filter.disabled[0].name: unknown plugin "AlsoBogus"`,
			"profiles[0].plugins.score.enabled[0].weight: 101",
			"profiles[0].plugins.score.enabled[1].weight: -1",
			`profiles[0].pluginConfig[1].name: "NodeAffinity" is configured twice`,
			`profiles[0].pluginConfig[2].name: unknown plugin "Nope"`,
			`profiles[1].schedulerName: "a" duplicates profiles[0].schedulerName`,
			"profiles[2].schedulerName: required",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Decode([]byte(tc.file))
			var errs []error
			if err != nil {
				errs = []error{err}
			} else {
				errs = Validate(c, known)
			}
			if len(errs) != len(tc.want) {
				t.Fatalf("errors %v, want %d", errs, len(tc.want))
			}
			for i, e := range errs {
				if !strings.Contains(e.Error(), tc.want[i]) {
					t.Errorf("error %d: %q does not contain %q", i, e, tc.want[i])
				}
			}
		})
	}
}

func TestDefaultsAndMerge(t *testing.T) {
	c := &Configuration{}
	SetDefaults(c, "my-scheduler")
	if *c.Parallelism != 16 || *c.PercentageOfNodesToScore != 0 || *c.PodInitialBackoffSeconds != 1 || *c.PodMaxBackoffSeconds != 10 {
		t.Errorf("defaults: %d %d %d %d", *c.Parallelism, *c.PercentageOfNodesToScore, *c.PodInitialBackoffSeconds, *c.PodMaxBackoffSeconds)
	}
	if len(c.Profiles) != 1 || c.Profiles[0].SchedulerName != "my-scheduler" {
		t.Fatalf("profiles: %+v", c.Profiles)
	}
	if diff := cmp.Diff(DefaultPlugins().MultiPoint.Enabled, weightsAsDefaults(c.Profiles[0].Plugins.MultiPoint.Enabled)); diff != "" {
		t.Errorf("default profile (-want +got):\n%s", diff)
	}
	custom := &Plugins{MultiPoint: PluginSet{
		Enabled:  []Plugin{{Name: "Custom", Weight: 7}, {Name: TaintToleration, Weight: 9}},
		Disabled: []Plugin{{Name: ImageLocality}},
	}}
	got := Merge(DefaultPlugins(), custom).MultiPoint
	var names []string
	for _, p := range got.Enabled {
		names = append(names, p.Name)
		if p.Name == TaintToleration && p.Weight != 9 {
			t.Errorf("TaintToleration weight %d, want 9", p.Weight)
		}
	}
	want := []string{PrioritySort, NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit,
		NodeConditions, PodTopologySpread, InterPodAffinity, DefaultPreemption, NodeResourcesBalancedAllocation, SelectorSpread, DefaultBinder, "Custom"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
	all := Merge(DefaultPlugins(), &Plugins{MultiPoint: PluginSet{Disabled: []Plugin{{Name: "*"}}, Enabled: []Plugin{{Name: "Only"}}}})
	if len(all.MultiPoint.Enabled) != 1 || all.MultiPoint.Enabled[0].Name != "Only" {
		t.Errorf(`"*" merge: %+v`, all.MultiPoint.Enabled)
	}
}

// weightsAsDefaults maps the weight 1 defaulting gives back to 0 where the
// defaults leave it unset.
func weightsAsDefaults(in []Plugin) []Plugin {
	def := map[string]int32{}
	for _, p := range DefaultPlugins().MultiPoint.Enabled {
		def[p.Name] = p.Weight
	}
	out := append([]Plugin(nil), in...)
	for i := range out {
		if def[out[i].Name] == 0 && out[i].Weight == 1 {
			out[i].Weight = 0
		}
	}
	return out
}

func TestErrorsAreInvalid(t *testing.T) {
	errs := Validate(&Configuration{Profiles: []Profile{{}}}, known)
	if len(errs) != 1 || !errors.Is(errs[0], ErrInvalid) {
		t.Errorf("errs %v", errs)
	}
}
