package metricsserver

import (
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"
)

// Usage is CPU and memory over one window.
type Usage struct {
	// Time is the end of the window.
	Time time.Time
	// Window is its length.
	Window time.Duration
	// CPU is the average rate over the window, in nanocores.
	CPU int64
	// Memory is the working set at Time, in bytes.
	Memory int64
}

// ResourceList renders u as the API's usage.
func (u Usage) ResourceList() corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourceCPU:    *resource.NewScaledQuantity(u.CPU, resource.Nano),
		corev1.ResourceMemory: *resource.NewQuantity(u.Memory, resource.BinarySI),
	}
}

// ContainerUsage is one container's usage.
type ContainerUsage struct {
	Name string
	Usage
}

// PodUsage is a pod's usage, container by container (sorted by name).
type PodUsage struct {
	Time       time.Time
	Window     time.Duration
	Containers []ContainerUsage
}

// nodeEntry is what the store keeps of one node: its last sample, the
// base of the next rates, and the usage computed from its last two.
type nodeEntry struct {
	last *nodeSample
	node *Usage
	pods map[podRef]PodUsage
}

// Store keeps each node's latest usage and that of the pods on it. It is
// safe for concurrent use.
type Store struct {
	// mu guards nodes.
	mu    sync.RWMutex
	nodes map[string]*nodeEntry
	// pods indexes every node's pods; rebuilt on each change.
	pods map[podRef]PodUsage
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{nodes: map[string]*nodeEntry{}, pods: map[podRef]PodUsage{}}
}

// Add records a new sample of node and replaces its usage with the rates
// between the previous sample and this one.
func (s *Store) Add(node string, sample *nodeSample) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.nodes[node]
	if e == nil {
		e = &nodeEntry{}
		s.nodes[node] = e
	}
	e.node, e.pods = nil, nil
	if prev := e.last; prev != nil {
		if u, ok := rate(prev.Node, sample.Node); ok {
			e.node = &u
		}
		e.pods = podRates(prev, sample)
	}
	e.last = sample
	s.reindexLocked()
}

// Fail drops the usage of a node whose scrape failed: stale figures are
// worse than none. Its last sample stays the base of the next rates.
func (s *Store) Fail(node string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.nodes[node]; e != nil && (e.node != nil || len(e.pods) > 0) {
		e.node, e.pods = nil, nil
		s.reindexLocked()
	}
}

// Retain forgets every node not in keep.
func (s *Store) Retain(keep map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := false
	for name := range s.nodes {
		if !keep[name] {
			delete(s.nodes, name)
			changed = true
		}
	}
	if changed {
		s.reindexLocked()
	}
}

// reindexLocked rebuilds the pod index; the caller holds mu.
func (s *Store) reindexLocked() {
	s.pods = map[podRef]PodUsage{}
	for _, e := range s.nodes {
		for ref, u := range e.pods {
			s.pods[ref] = u
		}
	}
}

// Node returns node's latest usage.
func (s *Store) Node(name string) (Usage, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if e := s.nodes[name]; e != nil && e.node != nil {
		return *e.node, true
	}
	return Usage{}, false
}

// Pod returns the latest usage of pod namespace/name.
func (s *Store) Pod(namespace, name string) (PodUsage, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.pods[podRef{namespace, name}]
	return u, ok
}

// rate is the usage between two points: the CPU rate and the later
// memory. There is none when the later point is not later, when the
// container restarted in between (another start time), or when the
// counter went back.
func rate(prev, cur point) (Usage, bool) {
	dt := cur.Time.Sub(prev.Time)
	if dt <= 0 || !prev.Started.Equal(cur.Started) || cur.CPU < prev.CPU {
		return Usage{}, false
	}
	cores := (cur.CPU - prev.CPU) / dt.Seconds()
	return Usage{Time: cur.Time, Window: dt, CPU: int64(math.Round(cores * 1e9)), Memory: cur.Memory}, true
}

// podRates computes the usage of every pod of cur all of whose containers
// have a rate against prev.
func podRates(prev, cur *nodeSample) map[podRef]PodUsage {
	out := map[podRef]PodUsage{}
	for ref, containers := range cur.Pods {
		before := prev.Pods[ref]
		pu := PodUsage{}
		complete := len(containers) > 0
		for name, p := range containers {
			q, ok := before[name]
			if !ok {
				complete = false
				break
			}
			u, ok := rate(q, p)
			if !ok {
				complete = false
				break
			}
			pu.Containers = append(pu.Containers, ContainerUsage{Name: name, Usage: u})
			if u.Time.After(pu.Time) {
				pu.Time, pu.Window = u.Time, u.Window
			}
		}
		if complete {
			sortContainers(pu.Containers)
			out[ref] = pu
		}
	}
	return out
}

func sortContainers(cs []ContainerUsage) {
	slices.SortFunc(cs, func(a, b ContainerUsage) int { return strings.Compare(a.Name, b.Name) })
}

// counts returns how many nodes and containers have usage.
func (s *Store) counts() (nodes, containers int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, e := range s.nodes {
		if e.node != nil {
			nodes++
		}
	}
	for _, p := range s.pods {
		containers += len(p.Containers)
	}
	return nodes, containers
}
