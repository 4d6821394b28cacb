package interpodaffinity

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"

	"platform.io/platform/pkg/scheduler/cache"
	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
	"platform.io/platform/pkg/scheduler/plugins/internal/plugintest"
)

// randomTerm returns a required term over app or colour, by host or zone,
// sometimes with namespaces or a namespace selector.
func randomTerm(r *rand.Rand) corev1.PodAffinityTerm {
	topo := []string{hostKey, zoneKey}[r.IntN(2)]
	var t corev1.PodAffinityTerm
	if r.IntN(2) == 0 {
		t = st.Term(topo, st.MakeLabelSelector().In("app", []string{fmt.Sprint("a", r.IntN(3))}).Obj())
	} else {
		t = st.Term(topo, st.MakeLabelSelector().Label("colour", fmt.Sprint("c", r.IntN(2))).Obj())
	}
	switch r.IntN(5) {
	case 0:
		t.Namespaces = []string{"ns0", "ns1"}
	case 1:
		t.NamespaceSelector = st.MakeLabelSelector().Label("team", "x").Obj()
	}
	return t
}

func randomPod(r *rand.Rand, name string) *corev1.Pod {
	w := st.MakePod().Name(name).UID(name).Namespace(fmt.Sprint("ns", r.IntN(2))).
		Label("app", fmt.Sprint("a", r.IntN(3))).Label("colour", fmt.Sprint("c", r.IntN(2)))
	for n := r.IntN(3); n > 0; n-- {
		w = w.PodAntiAffinity(required, randomTerm(r))
	}
	if r.IntN(3) == 0 {
		w = w.PodAffinity(required, randomTerm(r))
		if r.IntN(2) == 0 {
			w = w.PodAffinity(required, randomTerm(r))
		}
	}
	return w.Obj()
}

func randomNode(r *rand.Rand, i int) *corev1.Node {
	w := st.MakeNode().Name(fmt.Sprint("node-", i)).Label(hostKey, fmt.Sprint("node-", i))
	if r.IntN(8) != 0 {
		w = w.Label(zoneKey, fmt.Sprint("z", r.IntN(3)))
	}
	return w.Obj()
}

// TestIndexMatchesFullCount changes a random cluster step by step and
// checks that PreFilter and Filter of a plugin that keeps its index across
// the steps agree with a fresh plugin that counts every pod.
func TestIndexMatchesFullCount(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			c := plugintest.NewRandomCluster(r, 12, randomNode, randomPod)
			snap := c.Snapshot
			ns := map[string]labels.Set{"ns0": {"team": "x"}, "ns1": {}}
			kept := newPlugin(t, nsHandle{st.NewHandle(snap), ns}, "")
			for step := range 60 {
				c.Step(t, step)
				fresh := newPlugin(t, nsHandle{st.NewHandle(plugintest.WithoutChanges(snap)), ns}, "")
				pod := randomPod(r, fmt.Sprint("incoming-", step))
				got, want := filterStatuses(t, kept, snap, pod), filterStatuses(t, fresh, snap, pod)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("step %d: Filter with the index differs (-full +index):\n%s", step, diff)
				}
			}
		})
	}
}

// filterStatuses returns PreFilter's code and the counts it made, and each
// node's Filter status.
func filterStatuses(t *testing.T, pl *Plugin, snap *cache.Snapshot, pod *corev1.Pod) map[string]string {
	t.Helper()
	ctx := context.Background()
	cs := framework.NewCycleState()
	_, s := pl.PreFilter(ctx, cs, pod)
	out := map[string]string{"PreFilter": statusText(s)}
	state, err := readPreFilterState(cs)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]counts{"existing": state.existingAntiAffinityCounts, "affinity": state.affinityCounts, "anti": state.antiAffinityCounts} {
		c = c.clone()
		out[name] = fmt.Sprint(c.mutable())
	}
	if s.IsSkip() {
		return out
	}
	for _, ni := range snap.List() {
		out[ni.Node().Name] = statusText(pl.Filter(ctx, cs, pod, ni))
	}
	return out
}
