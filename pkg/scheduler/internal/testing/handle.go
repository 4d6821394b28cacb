package testing

import (
	"context"
	"sync"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/client"
	"platform.io/client/record"

	"platform.io/platform/pkg/scheduler/framework"
)

// Handle is a framework.Handle over fixed parts, for plugin tests: set the
// fields a test needs. The filter runners run Filters and the pre-filter
// extensions of PreFilters in order; nominated pods of equal or higher
// priority (from Nominator) are counted as upstream does.
type Handle struct {
	Snapshot        framework.NodeInfoLister
	ClientSet       *client.Set
	Recorder        record.Recorder
	Nominator       framework.PodNominator
	PreFilters      []framework.PreFilterPlugin
	Filters         []framework.FilterPlugin
	SymmetricWeight int32
	// Workers bounds Parallelize; 0 means 4.
	Workers int
}

var _ framework.Handle = (*Handle)(nil)

// NewHandle returns a handle over snapshot with the default symmetric
// weight and an empty nominator.
func NewHandle(snapshot framework.NodeInfoLister) *Handle {
	return &Handle{Snapshot: snapshot, Nominator: NewNominator(), SymmetricWeight: corev1.DefaultHardPodAffinitySymmetricWeight}
}

// SnapshotSharedLister returns Snapshot.
func (h *Handle) SnapshotSharedLister() framework.NodeInfoLister { return h.Snapshot }

// Clients returns ClientSet.
func (h *Handle) Clients() *client.Set { return h.ClientSet }

// EventRecorder returns Recorder.
func (h *Handle) EventRecorder() record.Recorder { return h.Recorder }

// PodNominator returns Nominator.
func (h *Handle) PodNominator() framework.PodNominator { return h.Nominator }

// HardPodAffinitySymmetricWeight returns SymmetricWeight.
func (h *Handle) HardPodAffinitySymmetricWeight() int32 { return h.SymmetricWeight }

// RunFilterPluginsWithNominatedPods runs Filters on nodeInfo with the
// nominated pods of at least pod's priority added (if any), and then, as
// upstream, without them, so that a pod passes only if it fits both ways.
func (h *Handle) RunFilterPluginsWithNominatedPods(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, nodeInfo *framework.NodeInfo) *framework.Status {
	if h.Nominator != nil && nodeInfo.Node() != nil {
		var added bool
		ni, st := nodeInfo.Clone(), state.Clone()
		for _, pi := range h.Nominator.NominatedPodsForNode(nodeInfo.Node().Name) {
			if pi.Pod.UID == pod.UID || priority(pi.Pod) < priority(pod) {
				continue
			}
			ni.AddPodInfo(pi)
			if s := h.RunPreFilterExtensionAddPod(ctx, st, pod, pi, ni); !s.IsSuccess() {
				return s
			}
			added = true
		}
		if added {
			if s := h.runFilters(ctx, st, pod, ni); !s.IsSuccess() {
				return s
			}
		}
	}
	return h.runFilters(ctx, state, pod, nodeInfo)
}

func (h *Handle) runFilters(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) *framework.Status {
	for _, f := range h.Filters {
		if s := f.Filter(ctx, state, pod, ni); !s.IsSuccess() {
			return s.WithPlugin(f.Name())
		}
	}
	return nil
}

func priority(p *corev1.Pod) int32 {
	if p.Spec.Priority == nil {
		return 0
	}
	return *p.Spec.Priority
}

// RunPreFilterExtensionAddPod runs AddPod of every PreFilters extension.
func (h *Handle) RunPreFilterExtensionAddPod(ctx context.Context, state *framework.CycleState, podToSchedule *corev1.Pod, podInfoToAdd *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	for _, pf := range h.PreFilters {
		if ext := pf.PreFilterExtensions(); ext != nil {
			if s := ext.AddPod(ctx, state, podToSchedule, podInfoToAdd, nodeInfo); !s.IsSuccess() {
				return s.WithPlugin(pf.Name())
			}
		}
	}
	return nil
}

// RunPreFilterExtensionRemovePod runs RemovePod of every PreFilters extension.
func (h *Handle) RunPreFilterExtensionRemovePod(ctx context.Context, state *framework.CycleState, podToSchedule *corev1.Pod, podInfoToRemove *framework.PodInfo, nodeInfo *framework.NodeInfo) *framework.Status {
	for _, pf := range h.PreFilters {
		if ext := pf.PreFilterExtensions(); ext != nil {
			if s := ext.RemovePod(ctx, state, podToSchedule, podInfoToRemove, nodeInfo); !s.IsSuccess() {
				return s.WithPlugin(pf.Name())
			}
		}
	}
	return nil
}

// Parallelize runs work(i) for every i in [0, n) on Workers goroutines.
func (h *Handle) Parallelize(ctx context.Context, n int, work func(i int)) {
	workers := h.Workers
	if workers <= 0 {
		workers = 4
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				work(i)
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// Nominator is a PodNominator in memory, safe for concurrent use.
type Nominator struct {
	mu     sync.Mutex
	byNode map[string][]*framework.PodInfo // mu guards byNode
}

var _ framework.PodNominator = (*Nominator)(nil)

// NewNominator returns a nominator with no nominations.
func NewNominator() *Nominator { return &Nominator{byNode: map[string][]*framework.PodInfo{}} }

// NominatedPodsForNode returns a copy of the pods nominated to nodeName.
func (n *Nominator) NominatedPodsForNode(nodeName string) []*framework.PodInfo {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]*framework.PodInfo(nil), n.byNode[nodeName]...)
}

// AddNominatedPod nominates pod to nodeName, replacing an earlier nomination.
func (n *Nominator) AddNominatedPod(pod *framework.PodInfo, nodeName string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.deleteLocked(pod.Pod)
	n.byNode[nodeName] = append(n.byNode[nodeName], pod)
}

// DeleteNominatedPodIfExists forgets pod's nomination.
func (n *Nominator) DeleteNominatedPodIfExists(pod *corev1.Pod) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.deleteLocked(pod)
}

func (n *Nominator) deleteLocked(pod *corev1.Pod) {
	for node, pis := range n.byNode {
		for i, pi := range pis {
			if pi.Pod.UID == pod.UID {
				n.byNode[node] = append(pis[:i:i], pis[i+1:]...)
				if len(n.byNode[node]) == 0 {
					delete(n.byNode, node)
				}
				return
			}
		}
	}
}
