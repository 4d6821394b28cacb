// Package imagelocality is the ImageLocality score plugin (data locality):
// a node that already has the pod's container images scores higher, the
// more so the larger the images, damped by how many nodes have them (so
// that pods do not all pile onto the few nodes holding a rare image). It
// takes no arguments.
package imagelocality
