package v1

import (
	"slices"
	"strconv"
)

// ToleratesTaint reports whether t tolerates taint: the effects match (an
// empty toleration effect matches all), the keys match (an empty key with
// Exists matches every key), and the value matches by the operator (Equal,
// the default; Exists ignores it; Lt and Gt compare integers).
func (t *Toleration) ToleratesTaint(taint *Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case TolerationOpExists:
		return true
	case "", TolerationOpEqual:
		return t.Key != "" && t.Value == taint.Value
	case TolerationOpLt, TolerationOpGt:
		tv, err1 := strconv.ParseInt(t.Value, 10, 64)
		nv, err2 := strconv.ParseInt(taint.Value, 10, 64)
		if t.Key == "" || err1 != nil || err2 != nil {
			return false
		}
		if t.Operator == TolerationOpLt {
			return nv < tv
		}
		return nv > tv
	}
	return false
}

// TolerationsTolerateTaint reports whether any of tols tolerates taint.
func TolerationsTolerateTaint(tols []Toleration, taint *Taint) bool {
	for i := range tols {
		if tols[i].ToleratesTaint(taint) {
			return true
		}
	}
	return false
}

// FindUntoleratedTaint returns the first of taints that keep (for which
// keep is true; nil keeps all) and none of tols tolerates.
func FindUntoleratedTaint(taints []Taint, tols []Toleration, keep func(*Taint) bool) (Taint, bool) {
	for i := range taints {
		if keep != nil && !keep(&taints[i]) {
			continue
		}
		if !TolerationsTolerateTaint(tols, &taints[i]) {
			return taints[i], true
		}
	}
	return Taint{}, false
}

// Matches reports whether node satisfies any of the selector's terms
// (terms are ORed; an empty term or an empty selector matches nothing).
func (s *NodeSelector) Matches(node *Node) bool {
	for i := range s.NodeSelectorTerms {
		if s.NodeSelectorTerms[i].Matches(node) {
			return true
		}
	}
	return false
}

// Matches reports whether node satisfies every requirement of the term:
// matchExpressions on its labels, matchFields on metadata.name (the only
// field upstream allows). A term with no requirements matches nothing.
func (t *NodeSelectorTerm) Matches(node *Node) bool {
	if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
		return false
	}
	for i := range t.MatchExpressions {
		r := &t.MatchExpressions[i]
		v, ok := node.Labels[r.Key]
		if !r.matches(v, ok) {
			return false
		}
	}
	for i := range t.MatchFields {
		r := &t.MatchFields[i]
		if r.Key != "metadata.name" || !r.matches(node.Name, true) {
			return false
		}
	}
	return true
}

// matches applies the requirement to a value that is present or not.
func (r *NodeSelectorRequirement) matches(v string, present bool) bool {
	switch r.Operator {
	case NodeSelectorOpIn:
		return present && slices.Contains(r.Values, v)
	case NodeSelectorOpNotIn:
		return !present || !slices.Contains(r.Values, v)
	case NodeSelectorOpExists:
		return present
	case NodeSelectorOpDoesNotExist:
		return !present
	case NodeSelectorOpGt, NodeSelectorOpLt:
		if !present || len(r.Values) != 1 {
			return false
		}
		have, err1 := strconv.ParseInt(v, 10, 64)
		want, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Operator == NodeSelectorOpGt {
			return have > want
		}
		return have < want
	}
	return false
}

// RequiredNodeAffinityMatches reports whether node satisfies pod's
// spec.nodeSelector and its required node affinity, as both the scheduler
// and the DaemonSet controller decide it.
func RequiredNodeAffinityMatches(pod *Pod, node *Node) bool {
	for k, v := range pod.Spec.NodeSelector {
		if nv, ok := node.Labels[k]; !ok || nv != v {
			return false
		}
	}
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return true
	}
	return a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.Matches(node)
}
