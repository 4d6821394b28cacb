// Package interpodaffinity is the InterPodAffinity scheduler plugin: it
// filters nodes by the pod's required affinity and anti-affinity terms and by
// the required anti-affinity of pods already placed (symmetry), and scores
// nodes by preferred terms both ways and by existing pods' required affinity.
// Namespace labels, for namespaceSelector, come from a Handle that also
// implements NamespaceLabeler; otherwise namespaces are taken as unlabelled.
package interpodaffinity
