// Package plugintest holds test support shared by the plugins' tests: a
// plugin constructor that fails the test, a PreFilter-then-Filter runner, a
// benchmark cluster, and a randomly changing cluster for checking a plugin's
// incremental index against a full count. It is for tests only.
package plugintest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/cache"
	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

// NewPlugin builds a plugin with factory from args (none when empty) and
// returns it as P, failing t on an error.
func NewPlugin[P framework.Plugin](t testing.TB, factory func(json.RawMessage, framework.Handle) (framework.Plugin, error), h framework.Handle, args string) P {
	t.Helper()
	var raw []byte
	if args != "" {
		raw = []byte(args)
	}
	p, err := factory(raw, h)
	if err != nil {
		t.Fatal(err)
	}
	return p.(P)
}

// StatusText renders a status for comparison: code and reasons, empty for
// a success.
func StatusText(s *framework.Status) string {
	if s.IsSuccess() {
		return ""
	}
	return s.Code().String() + ": " + s.Message()
}

// FilterPlugin runs PreFilter and Filter.
type FilterPlugin interface {
	framework.PreFilterPlugin
	framework.FilterPlugin
}

// FilterAll runs PreFilter, then Filter on every node of snap, returning
// each node's status text (empty for a fit, and for every node when
// PreFilter skips).
func FilterAll(t *testing.T, pl FilterPlugin, snap framework.NodeInfoLister, pod *corev1.Pod) map[string]string {
	t.Helper()
	ctx := context.Background()
	cs := framework.NewCycleState()
	_, s := pl.PreFilter(ctx, cs, pod)
	got := map[string]string{}
	for _, ni := range snap.List() {
		if s.IsSkip() {
			got[ni.Node().Name] = ""
			continue
		}
		if !s.IsSuccess() {
			t.Fatalf("PreFilter: %v", s.AsError())
		}
		got[ni.Node().Name] = StatusText(pl.Filter(ctx, cs, pod, ni))
	}
	return got
}

// BenchCluster returns nodes named node-i in 10 zones (label zoneKey) and
// pods built by pod(i, app, nodes), where app cycles over 50 apps.
func BenchCluster(zoneKey string, nodes, pods int, pod func(i int, app string, nodes []*corev1.Node) *corev1.Pod) *st.Snapshot {
	ns := make([]*corev1.Node, nodes)
	for i := range ns {
		ns[i] = st.MakeNode().Name(fmt.Sprintf("node-%d", i)).Label(zoneKey, fmt.Sprintf("zone-%d", i%10)).Obj()
	}
	ps := make([]*corev1.Pod, pods)
	for i := range ps {
		ps[i] = pod(i, fmt.Sprintf("app-%d", i%50), ns)
	}
	return st.NewSnapshot(ps, ns)
}

// plainLister hides a snapshot's change log.
type plainLister struct{ framework.NodeInfoLister }

// WithoutChanges hides l's change log, so a plugin over it counts every pod
// as it would without an index.
func WithoutChanges(l framework.NodeInfoLister) framework.NodeInfoLister { return plainLister{l} }

// RandomCluster is a scheduler cache of NumNodes random nodes that Step
// changes at random, and a snapshot of it.
type RandomCluster struct {
	Snapshot *cache.Snapshot

	r        *rand.Rand
	cache    *cache.Cache
	numNodes int
	newPod   func(r *rand.Rand, name string) *corev1.Pod
	newNode  func(r *rand.Rand, i int) *corev1.Node
	placed   []*corev1.Pod
}

// NewRandomCluster adds numNodes nodes built by newNode (named node-i) to a
// new cache; the snapshot stays empty until the first Step.
func NewRandomCluster(r *rand.Rand, numNodes int, newNode func(r *rand.Rand, i int) *corev1.Node, newPod func(r *rand.Rand, name string) *corev1.Pod) *RandomCluster {
	c := &RandomCluster{r: r, cache: cache.New(nil, 0, nil), numNodes: numNodes, newPod: newPod, newNode: newNode}
	for i := range numNodes {
		c.cache.AddNode(newNode(r, i))
	}
	c.Snapshot = cache.NewEmptySnapshot()
	return c
}

// Step makes up to three random changes (add a pod built by newPod to a
// random node, remove a pod, remove or replace a node), then updates the
// snapshot.
func (c *RandomCluster) Step(t *testing.T, step int) {
	t.Helper()
	r := c.r
	for n := r.IntN(4); n > 0; n-- {
		switch k := r.IntN(10); {
		case k < 6 || len(c.placed) == 0:
			p := c.newPod(r, fmt.Sprintf("p-%d-%d", step, n))
			p.Spec.NodeName = fmt.Sprint("node-", r.IntN(c.numNodes))
			if err := c.cache.AddPod(p); err != nil {
				t.Fatal(err)
			}
			c.placed = append(c.placed, p)
		case k < 9:
			i := r.IntN(len(c.placed))
			if err := c.cache.RemovePod(c.placed[i]); err != nil {
				t.Fatal(err)
			}
			c.placed = append(c.placed[:i], c.placed[i+1:]...)
		case r.IntN(3) == 0:
			c.cache.RemoveNode(c.newNode(r, r.IntN(c.numNodes)))
		default:
			c.cache.UpdateNode(nil, c.newNode(r, r.IntN(c.numNodes)))
		}
	}
	c.cache.UpdateSnapshot(c.Snapshot)
}
