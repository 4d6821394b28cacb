package pod

import corev1 "platform.io/client/api/core/v1"

// DefaultTolerationSeconds is how long a pod stays bound to a node tainted
// not-ready or unreachable before it is evicted, unless its spec says.
const DefaultTolerationSeconds int64 = 300

// Config carries the server options the pods row depends on.
type Config struct {
	// NotReadyTolerationSeconds is the tolerationSeconds of the not-ready
	// toleration added to every pod that has none.
	NotReadyTolerationSeconds int64
	// UnreachableTolerationSeconds is the same for the unreachable taint.
	UnreachableTolerationSeconds int64
}

// DefaultConfig returns the defaults of --default-not-ready-toleration-seconds
// and --default-unreachable-toleration-seconds.
func DefaultConfig() Config {
	return Config{NotReadyTolerationSeconds: DefaultTolerationSeconds, UnreachableTolerationSeconds: DefaultTolerationSeconds}
}

// addDefaultTolerations gives a pod NoExecute tolerations of the
// not-ready and unreachable taints for the configured time, unless it
// already tolerates them: a toleration naming the key (or no key) with the
// NoExecute effect (or none) counts, whatever its operator, as upstream's
// DefaultTolerationSeconds admission plugin decides. Like that plugin it
// runs on create and on update of the pod itself (not its subresources), so
// a replace whose body leaves the defaults out gets them back instead of
// failing validation, which forbids removing a toleration.
func (c Config) addDefaultTolerations(pod *corev1.Pod) {
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
		add(corev1.TaintNodeNotReady, c.NotReadyTolerationSeconds)
	}
	if !unreachable {
		add(corev1.TaintNodeUnreachable, c.UnreachableTolerationSeconds)
	}
}
