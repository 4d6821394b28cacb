package podtopologyspread

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/scheduler/framework"
)

// constraint is a parsed topology spread constraint.
type constraint struct {
	MaxSkew     int32
	TopologyKey string
	// Selector picks the pods counted; when Owner is set (a default
	// constraint) the pods counted are instead those controlled by Owner.
	Selector           labels.Selector
	Owner              meta.UID
	MinDomains         int32
	NodeAffinityPolicy corev1.NodeInclusionPolicy
	NodeTaintsPolicy   corev1.NodeInclusionPolicy
}

// matches reports whether pod is one the constraint counts.
func (c *constraint) matches(pod *corev1.Pod) bool {
	if c.Owner != "" {
		return controllerUID(pod) == c.Owner
	}
	return c.Selector.Matches(labels.Set(pod.Labels))
}

// countMatching counts the pods in ns that the constraint counts, leaving
// out terminating pods. An empty selector counts nothing, as upstream.
func (c *constraint) countMatching(pods []*framework.PodInfo, ns string) int {
	if c.Owner == "" && c.Selector.Empty() {
		return 0
	}
	n := 0
	for _, p := range pods {
		if p.Pod.DeletionTimestamp != nil || p.Pod.Namespace != ns {
			continue
		}
		if c.matches(p.Pod) {
			n++
		}
	}
	return n
}

// includesNode applies the node inclusion policies: with Honor, a node
// that fails the pod's required node affinity (nodeAffinityPolicy) or has
// a NoSchedule/NoExecute taint the pod does not tolerate (nodeTaintsPolicy)
// is not one of the constraint's domains.
func (c *constraint) includesNode(pod *corev1.Pod, node *corev1.Node) bool {
	if c.NodeAffinityPolicy == corev1.NodeInclusionPolicyHonor && !corev1.RequiredNodeAffinityMatches(pod, node) {
		return false
	}
	if c.NodeTaintsPolicy == corev1.NodeInclusionPolicyHonor {
		if _, found := corev1.FindUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, doNotSchedule); found {
			return false
		}
	}
	return true
}

func doNotSchedule(t *corev1.Taint) bool {
	return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
}

// controllerUID returns the UID of pod's controller, or "".
func controllerUID(pod *corev1.Pod) meta.UID {
	for _, r := range pod.OwnerReferences {
		if r.Controller != nil && *r.Controller {
			return r.UID
		}
	}
	return ""
}

// nodeHasAllKeys reports whether the node has every constraint's key.
func nodeHasAllKeys(nodeLabels map[string]string, cs []constraint) bool {
	for i := range cs {
		if _, ok := nodeLabels[cs[i].TopologyKey]; !ok {
			return false
		}
	}
	return true
}

// parseConstraints keeps those of in whose whenUnsatisfiable is action,
// with defaults filled and matchLabelKeys merged into the selector.
func parseConstraints(in []corev1.TopologySpreadConstraint, pod *corev1.Pod, action corev1.UnsatisfiableConstraintAction) []constraint {
	var out []constraint
	for _, c := range in {
		if c.WhenUnsatisfiable != action {
			continue
		}
		sel, err := labels.FromLabelSelector(c.LabelSelector)
		if err != nil || c.LabelSelector == nil {
			sel = labels.Nothing()
		}
		if len(c.MatchLabelKeys) > 0 && c.LabelSelector != nil && err == nil {
			reqs := sel.Requirements()
			for _, k := range c.MatchLabelKeys {
				if v, ok := pod.Labels[k]; ok {
					if r, err := labels.NewRequirement(k, labels.In, []string{v}); err == nil {
						reqs = append(reqs, r)
					}
				}
			}
			sel = labels.NewSelector(reqs...)
		}
		tc := constraint{
			MaxSkew: c.MaxSkew, TopologyKey: c.TopologyKey, Selector: sel, MinDomains: 1,
			NodeAffinityPolicy: corev1.NodeInclusionPolicyHonor, NodeTaintsPolicy: corev1.NodeInclusionPolicyIgnore,
		}
		if c.MinDomains != nil {
			tc.MinDomains = *c.MinDomains
		}
		if c.NodeAffinityPolicy != nil {
			tc.NodeAffinityPolicy = *c.NodeAffinityPolicy
		}
		if c.NodeTaintsPolicy != nil {
			tc.NodeTaintsPolicy = *c.NodeTaintsPolicy
		}
		out = append(out, tc)
	}
	return out
}

// constraintsFor returns pod's own constraints of action, or, when it has
// none, the default constraints of action counting the pods of the pod's
// controller. Upstream selects by the owning Service, ReplicaSet or
// StatefulSet's selector; plugins here see no such informers, so the pods
// counted are those with the same controller ownerReference (same UID). A
// pod without a controller gets no default constraints.
func (pl *Plugin) constraintsFor(pod *corev1.Pod, action corev1.UnsatisfiableConstraintAction) []constraint {
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		return parseConstraints(pod.Spec.TopologySpreadConstraints, pod, action)
	}
	owner := controllerUID(pod)
	if owner == "" {
		return nil
	}
	cs := parseConstraints(pl.defaultConstraints, pod, action)
	for i := range cs {
		cs[i].Owner = owner
	}
	return cs
}
