package scheduler

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// ErrNoNodesAvailable is the failure when the cluster has no nodes.
var ErrNoNodesAvailable = errors.New("no nodes available to schedule pods")

// Diagnosis is why a pod fits no node: each node's rejecting status and
// the plugins that rejected it.
type Diagnosis struct {
	NodeToStatus         framework.NodeToStatus
	UnschedulablePlugins map[string]bool
}

// FitError is the failure of a pod that fits no node.
type FitError struct {
	Pod         *corev1.Pod
	NumAllNodes int
	Diagnosis   Diagnosis
	// PostFilterMsg is the post-filter's (preemption's) own message.
	PostFilterMsg string
}

// Error is upstream's summary: "0/5 nodes are available: 3 Insufficient
// cpu, 2 node(s) had untolerated taint {k: v}." Each reason is counted
// over the nodes; the reasons are listed by count, largest first, then
// alphabetically.
func (e *FitError) Error() string {
	counts := map[string]int{}
	for _, st := range e.Diagnosis.NodeToStatus {
		for _, r := range st.Reasons() {
			counts[r]++
		}
	}
	reasons := make([]string, 0, len(counts))
	for r := range counts {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		a, b := reasons[i], reasons[j]
		if counts[a] != counts[b] {
			return counts[a] > counts[b]
		}
		return a < b
	})
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%d %s", counts[r], r)
	}
	msg := fmt.Sprintf("0/%d nodes are available: %s.", e.NumAllNodes, strings.Join(parts, ", "))
	if e.PostFilterMsg != "" {
		msg += " " + e.PostFilterMsg
	}
	return msg
}
