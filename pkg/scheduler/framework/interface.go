package framework

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/client"
	"platform.io/client/record"
)

// ErrNotFound is returned by CycleState.Read and listers for a missing entry.
var ErrNotFound = errors.New("framework: not found")

// MaxNodeScore and MinNodeScore bound normalized scores.
const (
	MaxNodeScore int64 = 100
	MinNodeScore int64 = 0
	// MaxTotalScore bounds a node's weighted sum.
	MaxTotalScore int64 = 1<<63 - 1
)

// Plugin is the base of every plugin.
type Plugin interface {
	Name() string
}

// QueuedPodInfo is a pod waiting in the scheduling queue.
type QueuedPodInfo struct {
	*PodInfo
	// Timestamp is when the pod was last added to the queue.
	Timestamp time.Time
	// Attempts counts scheduling attempts.
	Attempts int
	// InitialAttemptTimestamp is when the pod was first added.
	InitialAttemptTimestamp time.Time
	// UnschedulablePlugins named the plugins that rejected the last attempt;
	// only events those plugins registered for move the pod back.
	UnschedulablePlugins map[string]bool
}

// QueueSortPlugin orders the active queue.
type QueueSortPlugin interface {
	Plugin
	Less(a, b *QueuedPodInfo) bool
}

// PreFilterResult narrows the nodes to filter; nil NodeNames means all.
type PreFilterResult struct {
	NodeNames map[string]bool
}

// PreFilterPlugin computes per-pod state once per cycle, or rejects the
// pod before any node is looked at.
type PreFilterPlugin interface {
	Plugin
	PreFilter(ctx context.Context, state *CycleState, pod *corev1.Pod) (*PreFilterResult, *Status)
	// PreFilterExtensions returns the incremental updates preemption uses,
	// or nil.
	PreFilterExtensions() PreFilterExtensions
}

// PreFilterExtensions update a plugin's pre-filter state as if a pod were
// added to or removed from a node (preemption's "what if").
type PreFilterExtensions interface {
	AddPod(ctx context.Context, state *CycleState, podToSchedule *corev1.Pod, podInfoToAdd *PodInfo, nodeInfo *NodeInfo) *Status
	RemovePod(ctx context.Context, state *CycleState, podToSchedule *corev1.Pod, podInfoToRemove *PodInfo, nodeInfo *NodeInfo) *Status
}

// FilterPlugin says whether the pod may run on one node. It is called
// for many nodes concurrently and must not change nodeInfo.
type FilterPlugin interface {
	Plugin
	Filter(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeInfo *NodeInfo) *Status
}

// PostFilterResult carries a post-filter's outcome: the nominated node.
type PostFilterResult struct {
	NominatedNodeName string
}

// PostFilterPlugin runs when no node passed the filters (preemption).
type PostFilterPlugin interface {
	Plugin
	PostFilter(ctx context.Context, state *CycleState, pod *corev1.Pod, filtered NodeToStatus) (*PostFilterResult, *Status)
}

// PreScorePlugin computes per-pod state for scoring from the feasible nodes.
type PreScorePlugin interface {
	Plugin
	PreScore(ctx context.Context, state *CycleState, pod *corev1.Pod, nodes []*NodeInfo) *Status
}

// NodeScore is one node's score.
type NodeScore struct {
	Name  string
	Score int64
}

// NodeScoreList is the scores of the feasible nodes, in their order.
type NodeScoreList []NodeScore

// ScorePlugin ranks feasible nodes; scores are normalized to
// [MinNodeScore, MaxNodeScore], then multiplied by the plugin's weight.
type ScorePlugin interface {
	Plugin
	// Score is called for many nodes concurrently with a node of the
	// cycle's snapshot, which it must not change.
	Score(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeInfo *NodeInfo) (int64, *Status)
	// ScoreExtensions returns the normalizer, or nil when Score already
	// returns values in range.
	ScoreExtensions() ScoreExtensions
}

// ScoreExtensions normalize a plugin's scores in place.
type ScoreExtensions interface {
	NormalizeScore(ctx context.Context, state *CycleState, pod *corev1.Pod, scores NodeScoreList) *Status
}

// ReservePlugin is told when a node is chosen (Reserve) and when that
// choice is undone (Unreserve, also after a failed bind).
type ReservePlugin interface {
	Plugin
	Reserve(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeName string) *Status
	Unreserve(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeName string)
}

// PermitPlugin approves, rejects or delays (Wait with a timeout) the
// binding of a reserved pod.
type PermitPlugin interface {
	Plugin
	Permit(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeName string) (*Status, time.Duration)
}

// PreBindPlugin runs before binding (for example to provision volumes).
type PreBindPlugin interface {
	Plugin
	PreBind(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeName string) *Status
}

// BindPlugin binds the pod; Skip passes to the next bind plugin.
type BindPlugin interface {
	Plugin
	Bind(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeName string) *Status
}

// PostBindPlugin is told of a successful binding.
type PostBindPlugin interface {
	Plugin
	PostBind(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeName string)
}

// EventResource names a kind of object whose changes may make pods
// schedulable.
type EventResource string

// The resources cluster events are about.
const (
	PodResource  EventResource = "Pod"
	NodeResource EventResource = "Node"
	// WildCard matches every resource.
	WildCard EventResource = "*"
)

// ActionType is a bit set of changes.
type ActionType int

// The actions.
const (
	Add ActionType = 1 << iota
	Delete
	UpdateNodeAllocatable
	UpdateNodeLabel
	UpdateNodeTaint
	UpdateNodeCondition
	UpdatePodLabel
	// Update is every kind of update.
	Update = UpdateNodeAllocatable | UpdateNodeLabel | UpdateNodeTaint | UpdateNodeCondition | UpdatePodLabel
	// All is every action.
	All = Add | Delete | Update
)

// ClusterEvent is a change to the cluster, such as a node added.
type ClusterEvent struct {
	Resource   EventResource
	ActionType ActionType
	// Label names the event in metrics ("NodeAdd").
	Label string
}

// Match reports whether the event e (an observed change) is one that
// registration r asks for.
func (r ClusterEvent) Match(e ClusterEvent) bool {
	return (r.Resource == WildCard || r.Resource == e.Resource) && r.ActionType&e.ActionType != 0
}

// EnqueueExtensions are implemented by plugins that can reject pods: the
// events after which a pod they rejected may fit. A rejecting plugin that
// does not implement it is taken to care about every event.
type EnqueueExtensions interface {
	EventsToRegister() []ClusterEvent
}

// NodeInfoLister reads the cycle's snapshot of nodes.
type NodeInfoLister interface {
	List() []*NodeInfo
	// HavePodsWithAffinityList and HavePodsWithRequiredAntiAffinityList
	// return only the nodes with such pods, for inter-pod affinity.
	HavePodsWithAffinityList() []*NodeInfo
	HavePodsWithRequiredAntiAffinityList() []*NodeInfo
	Get(nodeName string) (*NodeInfo, error)
}

// NodeInfoChanges is implemented by a snapshot that can say which nodes
// changed, so that a plugin may keep counts across cycles and redo only
// the changed nodes instead of every pod. Marks only grow. A snapshot
// that does not implement it is read whole every cycle.
type NodeInfoChanges interface {
	// ChangeMark is the mark of the snapshot as it is now.
	ChangeMark() uint64
	// ChangedSince returns the names of the nodes added, changed or
	// removed after mark (names may repeat; the slice is the snapshot's
	// and valid until its next update). ok is false when the snapshot no
	// longer remembers that far back: the caller must start over.
	ChangedSince(mark uint64) (names []string, ok bool)
}

// PodNominator remembers pods nominated to nodes by preemption, so that
// lower-priority pods do not take the room they freed.
type PodNominator interface {
	// NominatedPodsForNode returns the pods nominated to the node.
	NominatedPodsForNode(nodeName string) []*PodInfo
	// AddNominatedPod records pod as nominated to nodeName.
	AddNominatedPod(pod *PodInfo, nodeName string)
	// DeleteNominatedPodIfExists forgets pod's nomination.
	DeleteNominatedPodIfExists(pod *corev1.Pod)
}

// Handle is what a plugin gets from the framework that runs it.
type Handle interface {
	// SnapshotSharedLister is the cycle's snapshot; valid only during a
	// cycle and read-only.
	SnapshotSharedLister() NodeInfoLister
	// Clients reach the API server (for binding and preemption).
	Clients() *client.Set
	// EventRecorder records events about pods.
	EventRecorder() record.Recorder
	// PodNominator tracks nominated pods.
	PodNominator() PodNominator
	// RunFilterPluginsWithNominatedPods runs the profile's filters for pod
	// on nodeInfo, counting higher-priority pods nominated to the node.
	RunFilterPluginsWithNominatedPods(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeInfo *NodeInfo) *Status
	// RunPreFilterExtensionAddPod and RunPreFilterExtensionRemovePod run
	// every pre-filter plugin's extension.
	RunPreFilterExtensionAddPod(ctx context.Context, state *CycleState, podToSchedule *corev1.Pod, podInfoToAdd *PodInfo, nodeInfo *NodeInfo) *Status
	RunPreFilterExtensionRemovePod(ctx context.Context, state *CycleState, podToSchedule *corev1.Pod, podInfoToRemove *PodInfo, nodeInfo *NodeInfo) *Status
	// Parallelize runs work(i) for i in [0, n) on the scheduler's workers.
	Parallelize(ctx context.Context, n int, work func(i int))
	// HardPodAffinitySymmetricWeight is --hard-pod-affinity-symmetric-weight.
	HardPodAffinitySymmetricWeight() int32
}

// Factory builds a plugin from its arguments (the JSON of its pluginConfig
// entry in the configuration file, nil for none; a plugin decodes them
// strictly and fails on unknown fields) and the handle.
type Factory func(args json.RawMessage, h Handle) (Plugin, error)
