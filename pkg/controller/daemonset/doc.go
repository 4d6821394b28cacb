// Package daemonset reconciles DaemonSets: one pod on every node the
// template fits (selector, required affinity, taints with the default
// DaemonSet tolerations), pinned by node-name affinity for the scheduler;
// failed pods are replaced with backoff, and new templates roll out under
// maxUnavailable/maxSurge (RollingUpdate) or on delete (OnDelete).
package daemonset
