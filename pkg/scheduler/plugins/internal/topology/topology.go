package topology

import corev1 "platform.io/client/api/core/v1"

// Pair is one topology domain: a node label key and one of its values.
type Pair struct{ Key, Value string }

// NodePair returns node's domain for key; false when node lacks the label.
func NodePair(node *corev1.Node, key string) (Pair, bool) {
	v, ok := node.Labels[key]
	return Pair{key, v}, ok
}
