package interpodaffinity

import (
	"encoding/json"
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in profiles.
const Name = "InterPodAffinity"

// Args are the plugin's arguments in a profile's pluginConfig.
type Args struct {
	// HardPodAffinityWeight is the score weight of an existing pod's
	// required affinity term that the incoming pod matches (0..100); unset
	// takes --hard-pod-affinity-symmetric-weight.
	HardPodAffinityWeight *int32 `json:"hardPodAffinityWeight,omitempty"`
	// IgnorePreferredTermsOfExistingPods skips existing pods' terms when
	// scoring a pod that has no preferred terms of its own.
	IgnorePreferredTermsOfExistingPods bool `json:"ignorePreferredTermsOfExistingPods,omitempty"`
}

// NamespaceLabeler is implemented by a Handle that knows namespaces'
// labels; terms with a namespaceSelector need them. The framework does not
// require it: without it every namespace is taken to have no labels, so a
// namespaceSelector matches only namespaces it selects with no labels.
type NamespaceLabeler interface {
	NamespaceLabels(namespace string) labels.Set
}

// Plugin is the InterPodAffinity plugin.
type Plugin struct {
	h                       framework.Handle
	hardWeight              int32
	ignoreExistingPreferred bool
	nsLabels                func(string) labels.Set
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
	var a Args
	if err := framework.DecodeArgs(Name, args, &a); err != nil {
		return nil, err
	}
	w := h.HardPodAffinitySymmetricWeight()
	if a.HardPodAffinityWeight != nil {
		w = *a.HardPodAffinityWeight
	}
	if w < 0 || w > 100 {
		return nil, fmt.Errorf("%s: hardPodAffinityWeight %d is not in the range 0 to 100", Name, w)
	}
	pl := &Plugin{h: h, hardWeight: w, ignoreExistingPreferred: a.IgnorePreferredTermsOfExistingPods, nsLabels: noLabels}
	if nl, ok := h.(NamespaceLabeler); ok {
		pl.nsLabels = nl.NamespaceLabels
	}
	return pl, nil
}

func noLabels(string) labels.Set { return nil }

// Name returns Name.
func (pl *Plugin) Name() string { return Name }

// EventsToRegister: any pod change may add or remove a matching pod; a node
// added or relabelled may open a topology domain.
func (pl *Plugin) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		{Resource: framework.PodResource, ActionType: framework.All, Label: "PodChange"},
		{Resource: framework.NodeResource, ActionType: framework.Add | framework.UpdateNodeLabel, Label: "NodeAddOrLabel"},
	}
}

// termMatches reports whether pod is one the term selects, looking up the
// pod's namespace labels only when the term's namespaceSelector decides.
func (pl *Plugin) termMatches(t *framework.AffinityTerm, pod *corev1.Pod) bool {
	if !t.Namespaces[pod.Namespace] {
		if t.NamespaceSelector == nil || !t.NamespaceSelector.Matches(pl.nsLabels(pod.Namespace)) {
			return false
		}
	}
	return t.Selector.Matches(labels.Set(pod.Labels))
}

// matchesAll reports whether pod matches every term (false for none).
func (pl *Plugin) matchesAll(terms []framework.AffinityTerm, pod *corev1.Pod) bool {
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		if !pl.termMatches(&terms[i], pod) {
			return false
		}
	}
	return true
}
