// Package daemonset reconciles DaemonSets: one pod on every node the pod
// template fits (nodeSelector, required node affinity, taints, with the
// default DaemonSet tolerations), placed through a required node affinity
// on the node's name so the scheduler binds it; failed pods are replaced
// with backoff, and a new template rolls out under maxUnavailable and
// maxSurge (RollingUpdate) or as pods are deleted (OnDelete). Pods bound
// to a node that no longer exists are left to the pod garbage collector.
package daemonset
