package podtopologyspread

import (
	"encoding/json"
	"errors"
	"fmt"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in profiles.
const Name = "PodTopologySpread"

// The well-known node labels the system default constraints spread over.
const (
	LabelHostname = "platform.io/hostname"
	LabelZone     = "topology.platform.io/zone"
)

// DefaultingType says where a pod without constraints gets them from.
type DefaultingType string

// The defaulting types.
const (
	// SystemDefaulting uses the built-in constraints (SystemDefaultConstraints).
	SystemDefaulting DefaultingType = "System"
	// ListDefaulting uses Args.DefaultConstraints.
	ListDefaulting DefaultingType = "List"
)

// SystemDefaultConstraints returns the constraints a pod with none gets
// under System defaulting: spread over hosts (max skew 3) and zones (max
// skew 5), both ScheduleAnyway.
func SystemDefaultConstraints() []corev1.TopologySpreadConstraint {
	return []corev1.TopologySpreadConstraint{
		{TopologyKey: LabelHostname, WhenUnsatisfiable: corev1.ScheduleAnyway, MaxSkew: 3},
		{TopologyKey: LabelZone, WhenUnsatisfiable: corev1.ScheduleAnyway, MaxSkew: 5},
	}
}

// Args are the plugin's arguments in a profile's pluginConfig.
type Args struct {
	// DefaultConstraints apply, under List defaulting, to pods that set no
	// constraints; they may not have a labelSelector (the selector is the
	// pod's owner's).
	DefaultConstraints []corev1.TopologySpreadConstraint `json:"defaultConstraints,omitempty"`
	// DefaultingType is System (the default) or List.
	DefaultingType DefaultingType `json:"defaultingType,omitempty"`
}

// Validate checks the arguments as upstream does.
func (a *Args) Validate() error {
	var errs []error
	switch a.DefaultingType {
	case SystemDefaulting:
		if len(a.DefaultConstraints) > 0 {
			errs = append(errs, errors.New("defaultConstraints: must be empty when defaultingType is System"))
		}
	case ListDefaulting:
	default:
		errs = append(errs, fmt.Errorf("defaultingType: unsupported value %q: supported values: System, List", a.DefaultingType))
	}
	seen := map[[2]string]bool{}
	for i, c := range a.DefaultConstraints {
		p := fmt.Sprintf("defaultConstraints[%d]", i)
		if c.MaxSkew <= 0 {
			errs = append(errs, fmt.Errorf("%s.maxSkew: %d must be greater than zero", p, c.MaxSkew))
		}
		if c.TopologyKey == "" {
			errs = append(errs, fmt.Errorf("%s.topologyKey: required", p))
		}
		if c.WhenUnsatisfiable != corev1.DoNotSchedule && c.WhenUnsatisfiable != corev1.ScheduleAnyway {
			errs = append(errs, fmt.Errorf("%s.whenUnsatisfiable: unsupported value %q", p, c.WhenUnsatisfiable))
		}
		if c.LabelSelector != nil {
			errs = append(errs, fmt.Errorf("%s.labelSelector: must not be set: default constraints select the pod's owner's pods", p))
		}
		if c.MinDomains != nil && *c.MinDomains <= 0 {
			errs = append(errs, fmt.Errorf("%s.minDomains: %d must be greater than zero", p, *c.MinDomains))
		}
		k := [2]string{c.TopologyKey, string(c.WhenUnsatisfiable)}
		if seen[k] {
			errs = append(errs, fmt.Errorf("%s: duplicate {%s, %s}", p, c.TopologyKey, c.WhenUnsatisfiable))
		}
		seen[k] = true
	}
	return errors.Join(errs...)
}

// Plugin is the PodTopologySpread plugin.
type Plugin struct {
	h                  framework.Handle
	defaultConstraints []corev1.TopologySpreadConstraint
	systemDefaulted    bool
	// idx keeps PreFilter's counts across cycles.
	idx index
}

var (
	_ framework.PreFilterPlugin   = (*Plugin)(nil)
	_ framework.FilterPlugin      = (*Plugin)(nil)
	_ framework.PreScorePlugin    = (*Plugin)(nil)
	_ framework.ScorePlugin       = (*Plugin)(nil)
	_ framework.EnqueueExtensions = (*Plugin)(nil)
)

// New builds the plugin from its JSON arguments (nil for the defaults).
func New(args json.RawMessage, h framework.Handle) (framework.Plugin, error) {
	a := Args{DefaultingType: SystemDefaulting}
	if err := framework.DecodeArgs(Name, args, &a); err != nil {
		return nil, err
	}
	if err := a.Validate(); err != nil {
		return nil, fmt.Errorf("%s: invalid args: %w", Name, err)
	}
	pl := &Plugin{h: h, defaultConstraints: a.DefaultConstraints}
	if a.DefaultingType == SystemDefaulting {
		pl.defaultConstraints = SystemDefaultConstraints()
		pl.systemDefaulted = true
	}
	return pl, nil
}

// Name returns Name.
func (pl *Plugin) Name() string { return Name }

// EventsToRegister: pods coming, going or relabelled change the counts; a
// node added, removed, relabelled or re-tainted changes the domains.
func (pl *Plugin) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		{Resource: framework.PodResource, ActionType: framework.All, Label: "PodChange"},
		{Resource: framework.NodeResource, ActionType: framework.Add | framework.Delete | framework.UpdateNodeLabel | framework.UpdateNodeTaint, Label: "NodeChange"},
	}
}
