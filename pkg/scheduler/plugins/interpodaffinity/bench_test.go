package interpodaffinity

import (
	"context"
	"fmt"
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
	"platform.io/platform/pkg/scheduler/plugins/internal/plugintest"
)

// benchCluster returns nodes in 10 zones and pods spread over them, one in
// ten of which has required anti-affinity to its own app by hostname.
func benchCluster(nodes, pods int) *st.Snapshot {
	return plugintest.BenchCluster(zoneKey, nodes, pods, func(i int, app string, ns []*corev1.Node) *corev1.Pod {
		w := st.MakePod().Name(fmt.Sprintf("pod-%d", i)).Label("app", app).Node(ns[i%nodes].Name)
		if i%10 == 0 {
			w = w.PodAntiAffinityIn("app", hostKey, []string{app}, required)
		}
		return w.Obj()
	})
}

func BenchmarkPreFilterFilter(b *testing.B) {
	snap := benchCluster(5000, 10000)
	cases := []struct {
		name string
		pod  *corev1.Pod
	}{
		{"anti-affinity by host", st.MakePod().Name("p").Label("app", "app-1").PodAntiAffinityIn("app", hostKey, []string{"app-1"}, required).Obj()},
		{"affinity by zone", st.MakePod().Name("p").Label("app", "new").PodAffinityIn("app", zoneKey, []string{"app-2"}, required).Obj()},
		{"no terms (symmetry only)", st.MakePod().Name("p").Label("app", "app-3").Obj()},
	}
	nodes := snap.List()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			pl := newPlugin(b, st.NewHandle(snap), "")
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				cs := framework.NewCycleState()
				if _, s := pl.PreFilter(ctx, cs, c.pod); s.IsSkip() {
					continue
				}
				for _, ni := range nodes {
					pl.Filter(ctx, cs, c.pod, ni)
				}
			}
		})
	}
}

func BenchmarkPreScoreScore(b *testing.B) {
	snap := benchCluster(5000, 10000)
	pod := st.MakePod().Name("p").Label("app", "app-1").WeightedPodAffinity(preferred, 5, inTerm("app", zoneKey, "app-1")).Obj()
	pl := newPlugin(b, st.NewHandle(snap), "")
	nodes := snap.List()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		cs := framework.NewCycleState()
		pl.PreScore(ctx, cs, pod, nodes)
		for _, ni := range nodes {
			pl.Score(ctx, cs, pod, ni)
		}
	}
}
