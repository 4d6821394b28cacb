package defaultpreemption

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// The reasons a node is no candidate, as upstream words them.
const (
	reasonNotHelpful = "Preemption is not helpful for scheduling"
	reasonNoVictims  = "No preemption victims found for incoming pod"
)

// candidate is a node where evicting victims lets the pod fit.
type candidate struct {
	node string
	// victims are in order of importance, most important first.
	victims []*corev1.Pod
}

// findCandidates dry-runs preemption on the nodes where it may help (those
// the filters found Unschedulable, not UnschedulableAndUnresolvable),
// examining numCandidates of them from a random offset. statuses says why
// each other node is no candidate.
func (pl *Plugin) findCandidates(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, filtered framework.NodeToStatus) ([]*candidate, framework.NodeToStatus, error) {
	all := pl.h.SnapshotSharedLister().List()
	if len(all) == 0 {
		return nil, nil, errors.New("no nodes available")
	}
	statuses := framework.NodeToStatus{}
	var potential []*framework.NodeInfo
	for _, ni := range all {
		name := ni.Node().Name
		s, rejected := filtered[name]
		if !rejected {
			// Not evaluated by the filters this cycle: nothing to preempt for.
			continue
		}
		if s.Code() == framework.UnschedulableAndUnresolvable {
			statuses[name] = framework.NewStatus(framework.UnschedulableAndUnresolvable, reasonNotHelpful)
			continue
		}
		potential = append(potential, ni)
	}
	if len(potential) == 0 {
		return nil, statuses, nil
	}
	offset, num := pl.offset(len(potential)), pl.numCandidates(len(potential))
	cands, more, err := pl.dryRun(ctx, state, pod, potential, offset, num)
	for k, v := range more {
		statuses[k] = v
	}
	return cands, statuses, err
}

// numCandidates is max(n*percentage/100, absolute), at most n.
func (pl *Plugin) numCandidates(n int) int {
	c := n * int(pl.percentage) / 100
	c = max(c, int(pl.absolute))
	return min(c, n)
}

// dryRun selects victims on each potential node, starting at offset and
// wrapping around, until num candidates are found.
func (pl *Plugin) dryRun(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, potential []*framework.NodeInfo, offset, num int) ([]*candidate, framework.NodeToStatus, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		cands    []*candidate
		statuses = framework.NodeToStatus{}
		errs     []error
	)
	pl.h.Parallelize(ctx, len(potential), func(i int) {
		if ctx.Err() != nil {
			return
		}
		ni := potential[(offset+i)%len(potential)].Clone()
		name := ni.Node().Name
		victims, s := pl.selectVictimsOnNode(ctx, state.Clone(), pod, ni)
		if s.IsSuccess() && len(victims) == 0 {
			s = framework.AsStatus(fmt.Errorf("expected at least one victim pod on node %q", name))
		}
		mu.Lock()
		defer mu.Unlock()
		if s.IsSuccess() {
			if len(cands) < num {
				cands = append(cands, &candidate{node: name, victims: victims})
			}
			if len(cands) >= num {
				cancel()
			}
			return
		}
		if s.Code() == framework.Error {
			errs = append(errs, s.AsError())
		}
		statuses[name] = s
	})
	return cands, statuses, errors.Join(errs...)
}

// selectVictimsOnNode removes every lower-priority pod from ni (a copy)
// and checks that pod then fits; it then puts back ("reprieves") as many of
// them as it can, most important first, keeping pod fitting. The pods not
// put back are the victims.
func (pl *Plugin) selectVictimsOnNode(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) ([]*corev1.Pod, *framework.Status) {
	prio := priority(pod)
	var potential []*framework.PodInfo
	for _, pi := range ni.Pods {
		if priority(pi.Pod) < prio {
			potential = append(potential, pi)
		}
	}
	if len(potential) == 0 {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, reasonNoVictims)
	}
	remove := func(pi *framework.PodInfo) error {
		if err := ni.RemovePod(pi.Pod); err != nil {
			return err
		}
		return pl.h.RunPreFilterExtensionRemovePod(ctx, state, pod, pi, ni).AsError()
	}
	for _, pi := range potential {
		if err := remove(pi); err != nil {
			return nil, framework.AsStatus(err)
		}
	}
	// Affinity to a lower-priority pod is not considered: if the pod does
	// not fit with them all gone, the node is no candidate.
	if s := pl.h.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni); !s.IsSuccess() {
		return nil, s
	}
	sort.SliceStable(potential, func(i, j int) bool { return pl.moreImportant(potential[i].Pod, potential[j].Pod) })
	var victims []*corev1.Pod
	for _, pi := range potential {
		ni.AddPodInfo(pi)
		if err := pl.h.RunPreFilterExtensionAddPod(ctx, state, pod, pi, ni).AsError(); err != nil {
			return nil, framework.AsStatus(err)
		}
		if pl.h.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni).IsSuccess() {
			continue
		}
		if err := remove(pi); err != nil {
			return nil, framework.AsStatus(err)
		}
		victims = append(victims, pi.Pod)
	}
	return victims, nil
}

// fitMessage renders upstream's "0/N nodes are available: ..." summary
// of why no node is a candidate.
func fitMessage(all []*framework.NodeInfo, statuses framework.NodeToStatus) string {
	counts := map[string]int{}
	for _, s := range statuses {
		for _, r := range s.Reasons() {
			counts[r]++
		}
	}
	var parts []string
	for r, n := range counts {
		parts = append(parts, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(parts)
	n := len(statuses)
	if n == 0 {
		n = len(all)
	}
	msg := fmt.Sprintf("0/%d nodes are available", n)
	if len(parts) > 0 {
		msg += ": " + strings.Join(parts, ", ")
	}
	return msg + "."
}
