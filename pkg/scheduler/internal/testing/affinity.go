package testing

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// PodAffinityKind says whether a pod (anti-)affinity term built by the
// helpers below is required or preferred (with weight 1).
type PodAffinityKind int

// The kinds of terms.
const (
	PodAffinityWithRequiredReq PodAffinityKind = iota + 1
	PodAffinityWithPreferredReq
)

func (p *PodWrapper) nodeAffinity() *corev1.NodeAffinity {
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &corev1.Affinity{}
	}
	if p.Spec.Affinity.NodeAffinity == nil {
		p.Spec.Affinity.NodeAffinity = &corev1.NodeAffinity{}
	}
	return p.Spec.Affinity.NodeAffinity
}

// NodeAffinityIn requires the node label key to be one of vals; it is
// ANDed into the first required term (created if needed).
func (p *PodWrapper) NodeAffinityIn(key string, vals ...string) *PodWrapper {
	return p.requiredNodeExpr(corev1.NodeSelectorRequirement{Key: key, Operator: corev1.NodeSelectorOpIn, Values: vals})
}

// NodeAffinityNotIn requires the node label key not to be one of vals.
func (p *PodWrapper) NodeAffinityNotIn(key string, vals ...string) *PodWrapper {
	return p.requiredNodeExpr(corev1.NodeSelectorRequirement{Key: key, Operator: corev1.NodeSelectorOpNotIn, Values: vals})
}

func (p *PodWrapper) requiredNodeExpr(r corev1.NodeSelectorRequirement) *PodWrapper {
	na := p.nodeAffinity()
	if na.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		na.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{}
	}
	sel := na.RequiredDuringSchedulingIgnoredDuringExecution
	if len(sel.NodeSelectorTerms) == 0 {
		sel.NodeSelectorTerms = append(sel.NodeSelectorTerms, corev1.NodeSelectorTerm{})
	}
	sel.NodeSelectorTerms[0].MatchExpressions = append(sel.NodeSelectorTerms[0].MatchExpressions, r)
	return p
}

// RequiredNodeTerms sets the required node affinity to the ORed terms.
func (p *PodWrapper) RequiredNodeTerms(terms ...corev1.NodeSelectorTerm) *PodWrapper {
	p.nodeAffinity().RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{NodeSelectorTerms: terms}
	return p
}

// PreferredNodeAffinityIn adds a preferred term with weight asking for the
// node label key to be one of vals.
func (p *PodWrapper) PreferredNodeAffinityIn(weight int32, key string, vals ...string) *PodWrapper {
	na := p.nodeAffinity()
	na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution,
		corev1.PreferredSchedulingTerm{Weight: weight, Preference: corev1.NodeSelectorTerm{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: key, Operator: corev1.NodeSelectorOpIn, Values: vals}},
		}})
	return p
}

func (p *PodWrapper) podAffinity() *corev1.PodAffinity {
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &corev1.Affinity{}
	}
	if p.Spec.Affinity.PodAffinity == nil {
		p.Spec.Affinity.PodAffinity = &corev1.PodAffinity{}
	}
	return p.Spec.Affinity.PodAffinity
}

func (p *PodWrapper) podAntiAffinity() *corev1.PodAntiAffinity {
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &corev1.Affinity{}
	}
	if p.Spec.Affinity.PodAntiAffinity == nil {
		p.Spec.Affinity.PodAntiAffinity = &corev1.PodAntiAffinity{}
	}
	return p.Spec.Affinity.PodAntiAffinity
}

// PodAffinity adds a pod affinity term of kind.
func (p *PodWrapper) PodAffinity(kind PodAffinityKind, term corev1.PodAffinityTerm) *PodWrapper {
	return p.WeightedPodAffinity(kind, 1, term)
}

// WeightedPodAffinity adds a pod affinity term; weight counts only for a
// preferred term.
func (p *PodWrapper) WeightedPodAffinity(kind PodAffinityKind, weight int32, term corev1.PodAffinityTerm) *PodWrapper {
	pa := p.podAffinity()
	if kind == PodAffinityWithRequiredReq {
		pa.RequiredDuringSchedulingIgnoredDuringExecution = append(pa.RequiredDuringSchedulingIgnoredDuringExecution, term)
	} else {
		pa.PreferredDuringSchedulingIgnoredDuringExecution = append(pa.PreferredDuringSchedulingIgnoredDuringExecution,
			corev1.WeightedPodAffinityTerm{Weight: weight, PodAffinityTerm: term})
	}
	return p
}

// PodAntiAffinity adds a pod anti-affinity term of kind.
func (p *PodWrapper) PodAntiAffinity(kind PodAffinityKind, term corev1.PodAffinityTerm) *PodWrapper {
	return p.WeightedPodAntiAffinity(kind, 1, term)
}

// WeightedPodAntiAffinity adds a pod anti-affinity term; weight counts only
// for a preferred term.
func (p *PodWrapper) WeightedPodAntiAffinity(kind PodAffinityKind, weight int32, term corev1.PodAffinityTerm) *PodWrapper {
	pa := p.podAntiAffinity()
	if kind == PodAffinityWithRequiredReq {
		pa.RequiredDuringSchedulingIgnoredDuringExecution = append(pa.RequiredDuringSchedulingIgnoredDuringExecution, term)
	} else {
		pa.PreferredDuringSchedulingIgnoredDuringExecution = append(pa.PreferredDuringSchedulingIgnoredDuringExecution,
			corev1.WeightedPodAffinityTerm{Weight: weight, PodAffinityTerm: term})
	}
	return p
}

// PodAffinityExists adds an affinity term for pods that have labelKey,
// within topologyKey.
func (p *PodWrapper) PodAffinityExists(labelKey, topologyKey string, kind PodAffinityKind) *PodWrapper {
	return p.PodAffinity(kind, Term(topologyKey, MakeLabelSelector().Exists(labelKey).Obj()))
}

// PodAntiAffinityExists adds an anti-affinity term for pods that have
// labelKey, within topologyKey.
func (p *PodWrapper) PodAntiAffinityExists(labelKey, topologyKey string, kind PodAffinityKind) *PodWrapper {
	return p.PodAntiAffinity(kind, Term(topologyKey, MakeLabelSelector().Exists(labelKey).Obj()))
}

// PodAffinityIn adds an affinity term for pods whose labelKey is one of
// vals, within topologyKey.
func (p *PodWrapper) PodAffinityIn(labelKey, topologyKey string, vals []string, kind PodAffinityKind) *PodWrapper {
	return p.PodAffinity(kind, Term(topologyKey, MakeLabelSelector().In(labelKey, vals).Obj()))
}

// PodAntiAffinityIn adds an anti-affinity term for pods whose labelKey is
// one of vals, within topologyKey.
func (p *PodWrapper) PodAntiAffinityIn(labelKey, topologyKey string, vals []string, kind PodAffinityKind) *PodWrapper {
	return p.PodAntiAffinity(kind, Term(topologyKey, MakeLabelSelector().In(labelKey, vals).Obj()))
}

// Term returns a pod affinity term over the pod's own namespace.
func Term(topologyKey string, sel *meta.LabelSelector) corev1.PodAffinityTerm {
	return corev1.PodAffinityTerm{TopologyKey: topologyKey, LabelSelector: sel}
}

// SpreadConstraint adds a topology spread constraint; minDomains,
// nodeAffinityPolicy and nodeTaintsPolicy may be nil.
func (p *PodWrapper) SpreadConstraint(maxSkew int32, topologyKey string, when corev1.UnsatisfiableConstraintAction,
	sel *meta.LabelSelector, minDomains *int32, nodeAffinityPolicy, nodeTaintsPolicy *corev1.NodeInclusionPolicy,
	matchLabelKeys []string) *PodWrapper {
	p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, corev1.TopologySpreadConstraint{
		MaxSkew: maxSkew, TopologyKey: topologyKey, WhenUnsatisfiable: when, LabelSelector: sel,
		MinDomains: minDomains, NodeAffinityPolicy: nodeAffinityPolicy, NodeTaintsPolicy: nodeTaintsPolicy,
		MatchLabelKeys: matchLabelKeys,
	})
	return p
}

// LabelSelectorWrapper builds a label selector fluently.
type LabelSelectorWrapper struct{ meta.LabelSelector }

// MakeLabelSelector returns an empty selector (it matches everything).
func MakeLabelSelector() *LabelSelectorWrapper { return &LabelSelectorWrapper{} }

// Obj returns the built selector.
func (s *LabelSelectorWrapper) Obj() *meta.LabelSelector { return &s.LabelSelector }

// Label requires label k to equal v.
func (s *LabelSelectorWrapper) Label(k, v string) *LabelSelectorWrapper {
	if s.MatchLabels == nil {
		s.MatchLabels = map[string]string{}
	}
	s.MatchLabels[k] = v
	return s
}

// In requires label k to be one of vals.
func (s *LabelSelectorWrapper) In(k string, vals []string) *LabelSelectorWrapper {
	return s.expr(k, meta.LabelSelectorOpIn, vals)
}

// NotIn requires label k, if present, not to be one of vals.
func (s *LabelSelectorWrapper) NotIn(k string, vals []string) *LabelSelectorWrapper {
	return s.expr(k, meta.LabelSelectorOpNotIn, vals)
}

// Exists requires label k.
func (s *LabelSelectorWrapper) Exists(k string) *LabelSelectorWrapper {
	return s.expr(k, meta.LabelSelectorOpExists, nil)
}

// NotExist requires label k to be absent.
func (s *LabelSelectorWrapper) NotExist(k string) *LabelSelectorWrapper {
	return s.expr(k, meta.LabelSelectorOpDoesNotExist, nil)
}

func (s *LabelSelectorWrapper) expr(k string, op meta.LabelSelectorOperator, vals []string) *LabelSelectorWrapper {
	s.MatchExpressions = append(s.MatchExpressions, meta.LabelSelectorRequirement{Key: k, Operator: op, Values: vals})
	return s
}
