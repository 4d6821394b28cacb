package podtopologyspread

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/cache"
	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
	"platform.io/platform/pkg/scheduler/plugins/internal/plugintest"
)

func randomSpreadPod(r *rand.Rand, name string) *corev1.Pod {
	w := st.MakePod().Name(name).UID(name).Namespace(fmt.Sprint("ns", r.IntN(2))).
		Label("app", fmt.Sprint("a", r.IntN(3)))
	if r.IntN(4) == 0 {
		w = w.Terminating(time.Unix(1, 0))
	}
	if r.IntN(4) == 0 {
		w = w.NodeSelector(map[string]string{"group": "g0"})
	}
	for n := r.IntN(3); n > 0; n-- {
		key := []string{zoneKey, LabelHostname}[r.IntN(2)]
		sel := st.MakeLabelSelector().Label("app", fmt.Sprint("a", r.IntN(3))).Obj()
		var taints *corev1.NodeInclusionPolicy
		if r.IntN(4) == 0 {
			taints = &honor
		}
		w = w.SpreadConstraint(int32(1+r.IntN(2)), key, corev1.DoNotSchedule, sel, nil, nil, taints, nil)
	}
	return w.Obj()
}

func randomSpreadNode(r *rand.Rand, i int) *corev1.Node {
	w := st.MakeNode().Name(fmt.Sprint("node-", i)).Label(LabelHostname, fmt.Sprint("node-", i)).
		Label("group", fmt.Sprint("g", r.IntN(2)))
	if r.IntN(8) != 0 {
		w = w.Label(zoneKey, fmt.Sprint("z", r.IntN(3)))
	}
	if r.IntN(6) == 0 {
		w = w.Taint("dedicated", "x", corev1.TaintEffectNoSchedule)
	}
	return w.Obj()
}

// TestIndexMatchesFullCount changes a random cluster step by step and
// checks that PreFilter and Filter of a plugin that keeps its index across
// the steps agree with a fresh plugin that counts every pod.
func TestIndexMatchesFullCount(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 11))
			c := plugintest.NewRandomCluster(r, 12, randomSpreadNode, randomSpreadPod)
			snap := c.Snapshot
			kept := newPlugin(t, st.NewHandle(snap), "")
			for step := range 60 {
				c.Step(t, step)
				fresh := newPlugin(t, st.NewHandle(plugintest.WithoutChanges(snap)), "")
				pod := randomSpreadPod(r, fmt.Sprint("incoming-", step))
				got, want := spreadStatuses(t, kept, snap, pod), spreadStatuses(t, fresh, snap, pod)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("step %d: with the index differs (-full +index):\n%s", step, diff)
				}
			}
		})
	}
}

// spreadStatuses returns PreFilter's counts and each node's Filter status.
func spreadStatuses(t *testing.T, pl *Plugin, snap *cache.Snapshot, pod *corev1.Pod) map[string]string {
	t.Helper()
	ctx := context.Background()
	cs := framework.NewCycleState()
	_, s := pl.PreFilter(ctx, cs, pod)
	out := map[string]string{"PreFilter": statusText(s)}
	if s.IsSkip() {
		return out
	}
	state, err := readPreFilterState(cs)
	if err != nil {
		t.Fatal(err)
	}
	out["matchNum"] = fmt.Sprint(state.matchNum)
	out["domains"] = fmt.Sprint(state.domains)
	for k, p := range state.criticalPaths {
		out["min "+k] = fmt.Sprint(p[0].num)
	}
	for _, ni := range snap.List() {
		out[ni.Node().Name] = statusText(pl.Filter(ctx, cs, pod, ni))
	}
	return out
}
