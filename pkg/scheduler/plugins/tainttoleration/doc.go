// Package tainttoleration is the TaintToleration plugin: Filter keeps pods
// off nodes with NoSchedule or NoExecute taints they do not tolerate;
// Score prefers nodes with fewer PreferNoSchedule taints the pod does not
// tolerate. It takes no arguments.
package tainttoleration
