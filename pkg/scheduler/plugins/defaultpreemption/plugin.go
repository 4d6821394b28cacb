package defaultpreemption

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in profiles.
const Name = "DefaultPreemption"

// Args are the plugin's arguments in a profile's pluginConfig. The number
// of candidate nodes examined is the larger of the two minimums, capped at
// the number of nodes where preemption may help.
type Args struct {
	// MinCandidateNodesPercentage is the least share of nodes, in percent
	// (0..100), to examine; default 10.
	MinCandidateNodesPercentage *int32 `json:"minCandidateNodesPercentage,omitempty"`
	// MinCandidateNodesAbsolute is the least number of nodes to examine;
	// default 100.
	MinCandidateNodesAbsolute *int32 `json:"minCandidateNodesAbsolute,omitempty"`
}

// The defaults of Args, as upstream.
const (
	DefaultMinCandidateNodesPercentage int32 = 10
	DefaultMinCandidateNodesAbsolute   int32 = 100
)

// Plugin is the DefaultPreemption plugin.
type Plugin struct {
	h          framework.Handle
	percentage int32
	absolute   int32
	// offset picks where in the node list the dry run starts: [0, n).
	offset func(n int) int
	// now stands in for the start time of pods that have none yet.
	now func() time.Time
}

var (
	_ framework.PostFilterPlugin  = (*Plugin)(nil)
	_ framework.EnqueueExtensions = (*Plugin)(nil)
)

// New builds the plugin from its JSON arguments (nil for the defaults).
func New(args json.RawMessage, h framework.Handle) (framework.Plugin, error) {
	var a Args
	if err := framework.DecodeArgs(Name, args, &a); err != nil {
		return nil, err
	}
	pl := &Plugin{
		h: h, percentage: DefaultMinCandidateNodesPercentage, absolute: DefaultMinCandidateNodesAbsolute,
		offset: rand.IntN, now: time.Now,
	}
	if a.MinCandidateNodesPercentage != nil {
		pl.percentage = *a.MinCandidateNodesPercentage
	}
	if a.MinCandidateNodesAbsolute != nil {
		pl.absolute = *a.MinCandidateNodesAbsolute
	}
	if err := validate(pl.percentage, pl.absolute); err != nil {
		return nil, fmt.Errorf("%s: invalid args: %w", Name, err)
	}
	return pl, nil
}

func validate(percentage, absolute int32) error {
	var errs []error
	if percentage < 0 || percentage > 100 {
		errs = append(errs, fmt.Errorf("minCandidateNodesPercentage: %d is not in the range 0 to 100", percentage))
	}
	if absolute < 0 {
		errs = append(errs, fmt.Errorf("minCandidateNodesAbsolute: %d must not be negative", absolute))
	}
	if percentage == 0 && absolute == 0 {
		errs = append(errs, errors.New("minCandidateNodesPercentage and minCandidateNodesAbsolute: both may not be zero"))
	}
	return errors.Join(errs...)
}

// Name returns Name.
func (pl *Plugin) Name() string { return Name }

// EventsToRegister: preemption fails for lack of victims or room; pods
// leaving or nodes coming or changing may change that.
func (pl *Plugin) EventsToRegister() []framework.ClusterEvent {
	return []framework.ClusterEvent{
		{Resource: framework.PodResource, ActionType: framework.Delete, Label: "PodDelete"},
		{Resource: framework.NodeResource, ActionType: framework.Add | framework.Update, Label: "NodeChange"},
	}
}

// PostFilter preempts for pod: on success it has evicted the victims,
// cleared lower-priority nominations on the node, set the pod's
// status.nominatedNodeName, and returns the node. Otherwise it returns an
// Unschedulable status saying why ("preemption: ...").
func (pl *Plugin) PostFilter(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, filtered framework.NodeToStatus) (*framework.PostFilterResult, *framework.Status) {
	res, s := pl.preempt(ctx, state, pod, filtered)
	if msg := s.Message(); msg != "" {
		s = framework.NewStatus(s.Code(), "preemption: "+msg)
	}
	return res, s
}

func (pl *Plugin) preempt(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, filtered framework.NodeToStatus) (*framework.PostFilterResult, *framework.Status) {
	if ok, msg := pl.eligible(pod, filtered[pod.Status.NominatedNodeName]); !ok {
		return nil, framework.NewStatus(framework.Unschedulable, msg)
	}
	candidates, statuses, err := pl.findCandidates(ctx, state, pod, filtered)
	if err != nil && len(candidates) == 0 {
		return nil, framework.AsStatus(err)
	}
	if len(candidates) == 0 {
		if pod.Status.NominatedNodeName != "" {
			if err := pl.setNominatedNodeName(ctx, pod, ""); err != nil {
				return nil, framework.AsStatus(err)
			}
		}
		return &framework.PostFilterResult{}, framework.NewStatus(framework.Unschedulable, fitMessage(pl.h.SnapshotSharedLister().List(), statuses))
	}
	best := pl.selectCandidate(candidates)
	if best == nil {
		return nil, framework.NewStatus(framework.Unschedulable, "no candidate node for preemption")
	}
	if s := pl.prepareCandidate(ctx, best, pod); !s.IsSuccess() {
		return nil, s
	}
	return &framework.PostFilterResult{NominatedNodeName: best.node}, nil
}

// eligible reports whether pod may preempt: its policy allows it, and it
// is not waiting on a nominated node where lower-priority pods preempted
// by the scheduler are still terminating (unless that node no longer fits
// for good).
func (pl *Plugin) eligible(pod *corev1.Pod, nominatedStatus *framework.Status) (bool, string) {
	if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy == corev1.PreemptNever {
		return false, "not eligible due to preemptionPolicy=Never."
	}
	nominated := pod.Status.NominatedNodeName
	if nominated == "" || nominatedStatus.Code() == framework.UnschedulableAndUnresolvable {
		return true, ""
	}
	ni, err := pl.h.SnapshotSharedLister().Get(nominated)
	if err != nil || ni == nil {
		return true, ""
	}
	prio := priority(pod)
	for _, pi := range ni.Pods {
		if priority(pi.Pod) < prio && pi.Pod.DeletionTimestamp != nil && preemptedByScheduler(pi.Pod) {
			return false, "not eligible due to a terminating pod on the nominated node."
		}
	}
	return true, ""
}

// priority is spec.priority, 0 when unset.
func priority(p *corev1.Pod) int32 {
	if p.Spec.Priority == nil {
		return 0
	}
	return *p.Spec.Priority
}

// startTime is status.startTime, or now for a pod not started.
func (pl *Plugin) startTime(p *corev1.Pod) time.Time {
	if p.Status.StartTime != nil {
		return p.Status.StartTime.Time
	}
	return pl.now()
}

// moreImportant orders pods by priority, then earlier start.
func (pl *Plugin) moreImportant(a, b *corev1.Pod) bool {
	pa, pb := priority(a), priority(b)
	if pa != pb {
		return pa > pb
	}
	return pl.startTime(a).Before(pl.startTime(b))
}
