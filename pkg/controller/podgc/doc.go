// Package podgc is the "podgc" loop: every 20s it force-deletes terminated
// pods beyond --terminated-pod-gc-threshold (oldest first), pods bound to
// nodes that no longer exist (after a 40s quarantine and a live check of
// the node), and unscheduled pods that are terminating.
package podgc
