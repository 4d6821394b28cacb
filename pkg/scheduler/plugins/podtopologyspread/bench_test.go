package podtopologyspread

import (
	"context"
	"fmt"
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
	"platform.io/platform/pkg/scheduler/plugins/internal/plugintest"
)

// benchCluster returns nodes in 10 zones and pods of 50 apps, each pod
// controlled by its app's ReplicaSet.
func benchCluster(nodes, pods int) *st.Snapshot {
	return plugintest.BenchCluster(zoneKey, nodes, pods, func(i int, app string, ns []*corev1.Node) *corev1.Pod {
		return st.MakePod().Name(fmt.Sprintf("pod-%d", i)).Label("app", app).
			OwnerReference("apps/v1", "ReplicaSet", app).Node(ns[(i*7)%nodes].Name).Obj()
	})
}

func BenchmarkPreFilterFilter(b *testing.B) {
	snap := benchCluster(5000, 10000)
	sel := st.MakeLabelSelector().Label("app", "app-1").Obj()
	cases := []struct {
		name string
		pod  *corev1.Pod
	}{
		{"zone", st.MakePod().Name("p").Label("app", "app-1").SpreadConstraint(1, zoneKey, corev1.DoNotSchedule, sel, nil, nil, nil, nil).Obj()},
		{"zone and host", st.MakePod().Name("p").Label("app", "app-1").
			SpreadConstraint(1, zoneKey, corev1.DoNotSchedule, sel, nil, nil, nil, nil).
			SpreadConstraint(1, LabelHostname, corev1.DoNotSchedule, sel, nil, nil, nil, nil).Obj()},
	}
	nodes := snap.List()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			pl := newPlugin(b, st.NewHandle(snap), "")
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				cs := framework.NewCycleState()
				pl.PreFilter(ctx, cs, c.pod)
				for _, ni := range nodes {
					pl.Filter(ctx, cs, c.pod, ni)
				}
			}
		})
	}
}

func BenchmarkPreScoreScore(b *testing.B) {
	snap := benchCluster(5000, 10000)
	pod := st.MakePod().Name("p").Label("app", "app-1").OwnerReference("apps/v1", "ReplicaSet", "app-1").Obj()
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
