package config

import "time"

// Defaults of the top-level fields, as upstream's.
const (
	DefaultParallelism              int32 = 16
	DefaultPercentageOfNodesToScore int32 = 0
	DefaultPodInitialBackoffSeconds int64 = 1
	DefaultPodMaxBackoffSeconds     int64 = 10
	// DefaultPodMaxInUnschedulablePodsDuration is how long a pod stays in
	// the unschedulable pool before it is retried anyway.
	DefaultPodMaxInUnschedulablePodsDuration = 5 * time.Minute
)

// Names of the default plugins (the packages under plugins/ export the same
// names; they are repeated here so that config does not import them).
const (
	PrioritySort                    = "PrioritySort"
	NodeUnschedulable               = "NodeUnschedulable"
	NodeName                        = "NodeName"
	TaintToleration                 = "TaintToleration"
	NodeAffinity                    = "NodeAffinity"
	NodePorts                       = "NodePorts"
	NodeResourcesFit                = "NodeResourcesFit"
	NodeConditions                  = "NodeConditions"
	PodTopologySpread               = "PodTopologySpread"
	InterPodAffinity                = "InterPodAffinity"
	DefaultPreemption               = "DefaultPreemption"
	NodeResourcesBalancedAllocation = "NodeResourcesBalancedAllocation"
	ImageLocality                   = "ImageLocality"
	SelectorSpread                  = "SelectorSpread"
	DefaultBinder                   = "DefaultBinder"
)

// DefaultPlugins returns the default profile's plugins: every default
// plugin in multiPoint, so each runs at every extension point it
// implements, with upstream's score weights (SelectorSpread is ours).
func DefaultPlugins() *Plugins {
	return &Plugins{MultiPoint: PluginSet{Enabled: []Plugin{
		{Name: PrioritySort},
		{Name: NodeUnschedulable},
		{Name: NodeName},
		{Name: TaintToleration, Weight: 3},
		{Name: NodeAffinity, Weight: 2},
		{Name: NodePorts},
		{Name: NodeResourcesFit, Weight: 1},
		{Name: NodeConditions},
		{Name: PodTopologySpread, Weight: 2},
		{Name: InterPodAffinity, Weight: 2},
		{Name: DefaultPreemption},
		{Name: NodeResourcesBalancedAllocation, Weight: 1},
		{Name: ImageLocality, Weight: 1},
		{Name: SelectorSpread, Weight: 1},
		{Name: DefaultBinder},
	}}}
}

// SetDefaults fills unset fields; schedulerName names the one profile
// when the file sets none.
func SetDefaults(c *Configuration, schedulerName string) {
	if c.APIVersion == "" {
		c.APIVersion, c.Kind = APIVersion, Kind
	}
	if c.Parallelism == nil {
		v := DefaultParallelism
		c.Parallelism = &v
	}
	if c.PercentageOfNodesToScore == nil {
		v := DefaultPercentageOfNodesToScore
		c.PercentageOfNodesToScore = &v
	}
	if c.PodInitialBackoffSeconds == nil {
		v := DefaultPodInitialBackoffSeconds
		c.PodInitialBackoffSeconds = &v
	}
	if c.PodMaxBackoffSeconds == nil {
		v := DefaultPodMaxBackoffSeconds
		c.PodMaxBackoffSeconds = &v
	}
	if len(c.Profiles) == 0 {
		c.Profiles = []Profile{{SchedulerName: schedulerName}}
	}
	for i := range c.Profiles {
		c.Profiles[i].Plugins = Merge(DefaultPlugins(), c.Profiles[i].Plugins)
		for _, ns := range c.Profiles[i].Plugins.Points() {
			for j := range ns.Set.Enabled {
				if ns.Set.Enabled[j].Weight == 0 {
					ns.Set.Enabled[j].Weight = 1
				}
			}
		}
	}
}

// Merge returns the defaults with custom applied, point by point, as
// upstream merges: a disabled name (or "*") drops default plugins, an
// enabled plugin that is also a default replaces it in place, and other
// enabled plugins follow the defaults in their order.
func Merge(defaults, custom *Plugins) *Plugins {
	out := &Plugins{}
	if custom == nil {
		custom = &Plugins{}
	}
	dp, cp, op := defaults.Points(), custom.Points(), out.Points()
	for i := range op {
		*op[i].Set = mergeSet(*dp[i].Set, *cp[i].Set)
	}
	return out
}

func mergeSet(def, custom PluginSet) PluginSet {
	disabled := map[string]bool{}
	for _, p := range custom.Disabled {
		disabled[p.Name] = true
	}
	custIdx := map[string]int{}
	for i, p := range custom.Enabled {
		custIdx[p.Name] = i
	}
	out := PluginSet{Disabled: append([]Plugin(nil), custom.Disabled...)}
	used := map[string]bool{}
	if !disabled["*"] {
		for _, p := range def.Enabled {
			if disabled[p.Name] {
				continue
			}
			if i, ok := custIdx[p.Name]; ok {
				p = custom.Enabled[i]
				used[p.Name] = true
			}
			out.Enabled = append(out.Enabled, p)
		}
	}
	for _, p := range custom.Enabled {
		if !used[p.Name] {
			out.Enabled = append(out.Enabled, p)
		}
	}
	return out
}
