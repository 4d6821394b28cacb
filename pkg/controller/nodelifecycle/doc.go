// Package nodelifecycle is the node lifecycle loop: it watches each node's
// Lease and Ready heartbeat, marks a silent node's conditions Unknown,
// taints nodes by condition (NoSchedule) and by readiness (NoExecute, rate
// limited per zone), and evicts the pods that do not tolerate a NoExecute
// taint once their toleration time is over.
package nodelifecycle
