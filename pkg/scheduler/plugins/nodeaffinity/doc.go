// Package nodeaffinity is the NodeAffinity plugin: Filter requires a node
// to match the pod's spec.nodeSelector and required node affinity (and the
// profile's addedAffinity, if configured); PreFilter narrows the nodes when
// every required term names nodes by metadata.name; Score sums the weights
// of the preferred terms a node matches, normalized to 0..100.
package nodeaffinity
