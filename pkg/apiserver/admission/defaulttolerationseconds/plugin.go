package defaulttolerationseconds

import (
	"context"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/admission"
)

// Name is the plugin's name in --enable-admission-plugins.
const Name = "DefaultTolerationSeconds"

// DefaultSeconds is the default of --default-not-ready-toleration-seconds
// and --default-unreachable-toleration-seconds.
const DefaultSeconds int64 = 300

// Plugin adds the default tolerations to pods.
type Plugin struct {
	// NotReadySeconds is the tolerationSeconds of the not-ready toleration
	// added to every pod that has none.
	NotReadySeconds int64
	// UnreachableSeconds is the same for the unreachable taint.
	UnreachableSeconds int64
}

var _ admission.Mutator = (*Plugin)(nil)

// Handles is true for creates and updates.
func (p *Plugin) Handles(op admission.Operation) bool {
	return op == admission.Create || op == admission.Update
}

// Admit gives a pod NoExecute tolerations of the not-ready and unreachable
// taints for the configured time, unless it already tolerates them: a
// toleration naming the key (or no key) with the NoExecute effect (or
// none) counts, whatever its operator. Like upstream's plugin it runs on
// create and on update of the pod itself (not its subresources), so a
// replace whose body leaves the defaults out gets them back instead of
// failing validation, which forbids removing a toleration.
func (p *Plugin) Admit(_ context.Context, a *admission.Attributes) error {
	if a.Resource.Group != "" || a.Resource.Resource != "pods" || a.Subresource != "" {
		return nil
	}
	pod, ok := a.Object.(*corev1.Pod)
	if !ok {
		return nil
	}
	notReady, unreachable := false, false
	for _, t := range pod.Spec.Tolerations {
		if t.Effect != "" && t.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		notReady = notReady || t.Key == "" || t.Key == corev1.TaintNodeNotReady
		unreachable = unreachable || t.Key == "" || t.Key == corev1.TaintNodeUnreachable
	}
	add := func(key string, seconds int64) {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, corev1.Toleration{
			Key: key, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &seconds,
		})
	}
	if !notReady {
		add(corev1.TaintNodeNotReady, p.NotReadySeconds)
	}
	if !unreachable {
		add(corev1.TaintNodeUnreachable, p.UnreachableSeconds)
	}
	return nil
}
