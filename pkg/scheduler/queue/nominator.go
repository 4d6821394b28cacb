package queue

import (
	"sync"
	"sync/atomic"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/scheduler/framework"
)

// Nominator remembers which pods preemption nominated to which nodes. It
// is safe for concurrent use.
type Nominator struct {
	// count is len(byUID), readable without the lock.
	count  atomic.Int64
	mu     sync.RWMutex
	byNode map[string][]*framework.PodInfo // mu guards byNode and byUID
	byUID  map[meta.UID]string
}

var _ framework.PodNominator = (*Nominator)(nil)

// NewNominator returns an empty nominator.
func NewNominator() *Nominator {
	return &Nominator{byNode: map[string][]*framework.PodInfo{}, byUID: map[meta.UID]string{}}
}

// AddNominatedPod records pi as nominated to nodeName; an empty nodeName
// takes the pod's status.nominatedNodeName, and none forgets the pod.
func (n *Nominator) AddNominatedPod(pi *framework.PodInfo, nodeName string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.deleteLocked(pi.Pod)
	if nodeName == "" {
		nodeName = pi.Pod.Status.NominatedNodeName
	}
	if nodeName == "" {
		return
	}
	n.byUID[pi.Pod.UID] = nodeName
	n.byNode[nodeName] = append(n.byNode[nodeName], pi)
	n.count.Store(int64(len(n.byUID)))
}

// Empty reports that no pod is nominated, without locking: the filter
// pass asks it for every node.
func (n *Nominator) Empty() bool { return n.count.Load() == 0 }

// DeleteNominatedPodIfExists forgets pod's nomination.
func (n *Nominator) DeleteNominatedPodIfExists(pod *corev1.Pod) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.deleteLocked(pod)
}

func (n *Nominator) deleteLocked(pod *corev1.Pod) {
	node, ok := n.byUID[pod.UID]
	if !ok {
		return
	}
	delete(n.byUID, pod.UID)
	n.count.Store(int64(len(n.byUID)))
	list := n.byNode[node]
	for i, pi := range list {
		if pi.Pod.UID == pod.UID {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(n.byNode, node)
	} else {
		n.byNode[node] = list
	}
}

// updateNominatedPod replaces old's entry with newPI's, keeping the
// nomination unless the new pod names another node in its status.
func (n *Nominator) updateNominatedPod(old *corev1.Pod, newPI *framework.PodInfo) {
	n.mu.Lock()
	defer n.mu.Unlock()
	node := n.byUID[old.UID]
	if newPI.Pod.Status.NominatedNodeName != "" {
		node = newPI.Pod.Status.NominatedNodeName
	}
	n.deleteLocked(old)
	if node == "" || newPI.Pod.Spec.NodeName != "" {
		return
	}
	n.byUID[newPI.Pod.UID] = node
	n.byNode[node] = append(n.byNode[node], newPI)
	n.count.Store(int64(len(n.byUID)))
}

// NominatedPodsForNode returns a copy of the pods nominated to nodeName.
func (n *Nominator) NominatedPodsForNode(nodeName string) []*framework.PodInfo {
	n.mu.RLock()
	defer n.mu.RUnlock()
	list := n.byNode[nodeName]
	if len(list) == 0 {
		return nil
	}
	return append([]*framework.PodInfo(nil), list...)
}

// NominatedNode returns the node pod is nominated to, "" for none.
func (n *Nominator) NominatedNode(pod *corev1.Pod) string {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.byUID[pod.UID]
}
