package scheduler

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/scheduler/framework"
	"platform.io/platform/pkg/scheduler/metrics"
	"platform.io/platform/pkg/scheduler/runtime"
)

// Bounds of the adaptive share of nodes to find feasible, as upstream's.
const (
	minFeasibleNodesToFind           = 100
	minFeasibleNodesPercentageToFind = 5
)

// cycle is one pod's scheduling attempt.
type cycle struct {
	qpi   *framework.QueuedPodInfo
	fwk   *runtime.Framework
	state *framework.CycleState
	start time.Time
	// number is the queue's scheduling cycle when the pod was popped.
	number int64
}

// scheduleOne schedules the next pod; it returns only queue.ErrClosed.
func (s *Scheduler) scheduleOne(ctx context.Context) error {
	qpi, err := s.Queue.Pop()
	if err != nil {
		return err
	}
	pod := qpi.Pod
	fwk, ok := s.Profiles[pod.Spec.SchedulerName]
	if !ok || pod.DeletionTimestamp != nil || s.Cache.IsAssumedPod(pod) {
		return nil
	}
	c := &cycle{qpi: qpi, fwk: fwk, state: framework.NewCycleState(), start: time.Now(), number: s.Queue.SchedulingCycle()}
	if s.dropPastDeadline(c, pod) {
		return nil
	}
	s.cycles++
	if s.cycles%pluginMetricsSampleEvery == 0 {
		ctx = runtime.WithPluginMetrics(ctx)
	}
	s.Cache.UpdateSnapshot(s.snapshot)
	host, err := s.schedulePod(ctx, c, pod)
	if err != nil {
		s.handleScheduleError(ctx, c, err)
		return nil
	}
	assumed := *pod
	assumed.Spec.NodeName = host
	if st := fwk.RunReservePluginsReserve(ctx, c.state, &assumed, host); !st.IsSuccess() {
		fwk.RunReservePluginsUnreserve(ctx, c.state, &assumed, host)
		s.fail(ctx, c, st.AsError(), st, "")
		return nil
	}
	if err := s.Cache.AssumePod(&assumed); err != nil {
		fwk.RunReservePluginsUnreserve(ctx, c.state, &assumed, host)
		s.fail(ctx, c, err, nil, "")
		return nil
	}
	s.Queue.Nominator().DeleteNominatedPodIfExists(pod)
	if st := fwk.RunPermitPlugins(ctx, c.state, &assumed, host); !st.IsSuccess() && st.Code() != framework.Wait {
		s.undo(ctx, c, &assumed, host)
		s.fail(ctx, c, st.AsError(), st, "")
		return nil
	}
	select {
	case s.bindSlots <- struct{}{}:
	case <-ctx.Done():
		s.undo(ctx, c, &assumed, host)
		return nil
	}
	s.bindings.Add(1)
	s.metrics.BindingStarted()
	go func() {
		defer func() { <-s.bindSlots; s.bindings.Done(); s.metrics.BindingDone() }()
		s.bindingCycle(ctx, c, &assumed, host)
	}()
	return nil
}

// undo reverses Reserve and the assumption.
func (s *Scheduler) undo(ctx context.Context, c *cycle, assumed *corev1.Pod, host string) {
	c.fwk.RunReservePluginsUnreserve(ctx, c.state, assumed, host)
	if err := s.Cache.ForgetPod(assumed); err != nil {
		s.lg.Error("forget assumed pod", zap.String("pod", assumed.Namespace+"/"+assumed.Name), zap.Error(err))
	}
}

// handleScheduleError runs the post-filters (preemption) for a pod that
// fits no node, then records the failure.
func (s *Scheduler) handleScheduleError(ctx context.Context, c *cycle, err error) {
	var fitErr *FitError
	if !errors.As(err, &fitErr) {
		s.fail(ctx, c, err, nil, "")
		return
	}
	nominated := ""
	if c.fwk.HasPostFilters() {
		res, st := c.fwk.RunPostFilterPlugins(ctx, c.state, c.qpi.Pod, fitErr.Diagnosis.NodeToStatus)
		if st.Code() == framework.Error {
			s.lg.Error("post-filter", zap.String("pod", c.qpi.Pod.Namespace+"/"+c.qpi.Pod.Name), zap.Error(st.AsError()))
		}
		if st.IsSuccess() && res != nil && res.NominatedNodeName != "" {
			nominated = res.NominatedNodeName
			s.metrics.Preemption(s.victimsOn(ctx, c.qpi.Pod, nominated))
		} else {
			s.metrics.Preemption(0)
			fitErr.PostFilterMsg = st.Message()
		}
	}
	s.fail(ctx, c, fitErr, nil, nominated)
}

// victimsOn counts the pods preemption evicted from node for pod: the
// lower-priority pods the cycle's snapshot had there that the API server
// now reports gone or terminating. Preemption is rare; the reads are few.
func (s *Scheduler) victimsOn(ctx context.Context, pod *corev1.Pod, node string) int {
	ni, err := s.snapshot.Get(node)
	if err != nil {
		return 0
	}
	n := 0
	for _, pi := range ni.Pods {
		if priorityOf(pi.Pod) >= priorityOf(pod) {
			continue
		}
		cur, err := s.clients.Pods.Namespace(pi.Pod.Namespace).Get(ctx, pi.Pod.Name, meta.GetOptions{})
		if apierrors.IsNotFound(err) || (err == nil && (cur.UID != pi.Pod.UID || cur.DeletionTimestamp != nil)) {
			n++
		}
	}
	return n
}

func priorityOf(p *corev1.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

// schedulePod returns the node chosen for pod, a *FitError when none
// fits, or another error.
func (s *Scheduler) schedulePod(ctx context.Context, c *cycle, pod *corev1.Pod) (string, error) {
	if s.snapshot.NumNodes() == 0 {
		return "", ErrNoNodesAvailable
	}
	feasible, diag, err := s.findNodesThatFit(ctx, c, pod)
	if err != nil {
		return "", err
	}
	if len(feasible) == 0 {
		return "", &FitError{Pod: pod, NumAllNodes: s.snapshot.NumNodes(), Diagnosis: diag}
	}
	if len(feasible) == 1 {
		return feasible[0].Node().Name, nil
	}
	totals, err := s.prioritize(ctx, c, pod, feasible)
	if err != nil {
		return "", err
	}
	return selectHost(feasible, totals), nil
}

// findNodesThatFit runs the pre-filters, then the filters over the nodes
// (the nominated node first, if the pod has one).
func (s *Scheduler) findNodesThatFit(ctx context.Context, c *cycle, pod *corev1.Pod) ([]*framework.NodeInfo, Diagnosis, error) {
	diag := Diagnosis{NodeToStatus: framework.NodeToStatus{}, UnschedulablePlugins: map[string]bool{}}
	all := s.snapshot.List()
	pfr, st := c.fwk.RunPreFilterPlugins(ctx, c.state, pod)
	if !st.IsSuccess() {
		if !st.IsRejected() {
			return nil, diag, st.AsError()
		}
		for _, ni := range all {
			diag.NodeToStatus[ni.Node().Name] = st
		}
		diag.UnschedulablePlugins[st.Plugin()] = true
		return nil, diag, nil
	}
	if nn := pod.Status.NominatedNodeName; nn != "" {
		if ni, err := s.snapshot.Get(nn); err == nil {
			feasible, err := s.filterNodes(ctx, c, pod, &diag, []*framework.NodeInfo{ni}, false)
			if err != nil || len(feasible) > 0 {
				return feasible, diag, err
			}
		}
	}
	nodes := all
	if pfr != nil && pfr.NodeNames != nil {
		nodes = make([]*framework.NodeInfo, 0, len(pfr.NodeNames))
		for name := range pfr.NodeNames {
			if ni, err := s.snapshot.Get(name); err == nil {
				nodes = append(nodes, ni)
			}
		}
	}
	feasible, err := s.filterNodes(ctx, c, pod, &diag, nodes, true)
	return feasible, diag, err
}

// numFeasibleNodesToFind is how many feasible nodes are enough, as
// upstream computes it: all of a small cluster, else the configured
// percentage or, for 0, 50% less 1% per 125 nodes, at least 5%, and
// never fewer than 100 nodes.
func numFeasibleNodesToFind(percentage int32, numAll int) int {
	if numAll < minFeasibleNodesToFind || percentage >= 100 {
		return numAll
	}
	adaptive := int(percentage)
	if adaptive <= 0 {
		adaptive = 50 - numAll/125
		if adaptive < minFeasibleNodesPercentageToFind {
			adaptive = minFeasibleNodesPercentageToFind
		}
	}
	n := numAll * adaptive / 100
	if n < minFeasibleNodesToFind {
		return minFeasibleNodesToFind
	}
	return n
}

// filterNodes filters nodes in parallel, starting (when rotate) at the
// rotating index, and stops once enough feasible nodes are found.
func (s *Scheduler) filterNodes(ctx context.Context, c *cycle, pod *corev1.Pod, diag *Diagnosis, nodes []*framework.NodeInfo, rotate bool) ([]*framework.NodeInfo, error) {
	n := len(nodes)
	if n == 0 {
		return nil, nil
	}
	want := numFeasibleNodesToFind(s.percentage, n)
	start := 0
	if rotate {
		start = s.nextStartNodeIndex % n
	}
	feasible := make([]*framework.NodeInfo, want)
	if !c.fwk.HasFilters() {
		for i := range feasible {
			feasible[i] = nodes[(start+i)%n]
		}
		if rotate {
			s.nextStartNodeIndex = (start + want) % n
		}
		return feasible, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Rejections are kept by position, without a lock, and turned into
	// the diagnosis only when no node fits: a pod that is scheduled never
	// needs them.
	if cap(s.statusBuf) < n {
		s.statusBuf = make([]*framework.Status, n)
	}
	statuses := s.statusBuf[:n]
	defer clear(statuses)
	var found, rejected atomic.Int64
	var errOnce sync.Once
	var firstErr error
	c.fwk.Parallelize(ctx, n, func(i int) {
		ni := nodes[(start+i)%n]
		st := c.fwk.RunFilterPluginsWithNominatedPods(ctx, c.state, pod, ni)
		switch {
		case st.IsSuccess():
			k := found.Add(1)
			if k > int64(want) {
				found.Add(-1)
				cancel()
				return
			}
			feasible[k-1] = ni
		case st.IsRejected():
			rejected.Add(1)
			statuses[i] = st
		default:
			errOnce.Do(func() { firstErr = st.AsError() })
			cancel()
		}
	})
	if firstErr != nil {
		return nil, firstErr
	}
	if rotate {
		s.nextStartNodeIndex = (start + int(found.Load()+rejected.Load())) % n
	}
	if found.Load() == 0 {
		for i, st := range statuses {
			if st != nil {
				diag.NodeToStatus[nodes[(start+i)%n].Node().Name] = st
				diag.UnschedulablePlugins[st.Plugin()] = true
			}
		}
	}
	return feasible[:found.Load()], nil
}

// prioritize runs pre-score and score; without score plugins every node
// scores the same.
func (s *Scheduler) prioritize(ctx context.Context, c *cycle, pod *corev1.Pod, nodes []*framework.NodeInfo) ([]int64, error) {
	if !c.fwk.HasScorePlugins() {
		return make([]int64, len(nodes)), nil
	}
	if st := c.fwk.RunPreScorePlugins(ctx, c.state, pod, nodes); !st.IsSuccess() {
		return nil, st.AsError()
	}
	totals, st := c.fwk.RunScorePlugins(ctx, c.state, pod, nodes)
	if !st.IsSuccess() {
		return nil, st.AsError()
	}
	return totals, nil
}

// selectHost returns a node of the highest total, chosen uniformly among
// ties (reservoir sampling).
func selectHost(nodes []*framework.NodeInfo, totals []int64) string {
	best, ties := 0, 1
	for i := 1; i < len(nodes); i++ {
		switch {
		case totals[i] > totals[best]:
			best, ties = i, 1
		case totals[i] == totals[best]:
			ties++
			if rand.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return nodes[best].Node().Name
}

// dropPastDeadline records and drops a pod whose activeDeadlineSeconds
// passed while it waited; it is not bound.
func (s *Scheduler) dropPastDeadline(c *cycle, pod *corev1.Pod) bool {
	d, passed := deadline(pod, s.now())
	if !passed {
		return false
	}
	s.recorder.Eventf(podRef(pod), corev1.EventTypeWarning, "FailedScheduling",
		"Pod %s/%s was not bound: its activeDeadlineSeconds (%ds) passed at %s while it waited to be scheduled",
		pod.Namespace, pod.Name, *pod.Spec.ActiveDeadlineSeconds, d.UTC().Format(time.RFC3339))
	s.metrics.Attempt(metrics.Unschedulable, c.fwk.ProfileName(), c.start, c.qpi.InitialAttemptTimestamp, time.Now())
	s.Queue.Delete(pod)
	return true
}

// podRef is the involved object of the scheduler's events about p.
func podRef(p *corev1.Pod) corev1.ObjectReference {
	return corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: p.Namespace, Name: p.Name,
		UID: p.UID, ResourceVersion: p.ResourceVersion}
}
