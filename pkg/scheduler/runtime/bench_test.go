package runtime

import (
	"context"
	"fmt"
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// every is fake with the extension points it lacks, so that a cycle goes
// through all of them.
type every struct{ *fake }

func (every) PreScore(context.Context, *framework.CycleState, *corev1.Pod, []*framework.NodeInfo) *framework.Status {
	return nil
}
func (every) PreBind(context.Context, *framework.CycleState, *corev1.Pod, string) *framework.Status {
	return nil
}
func (every) PostBind(context.Context, *framework.CycleState, *corev1.Pod, string) {}

// BenchmarkCycle runs one scheduling cycle's extension points (pre-filter,
// filter on every node, pre-score, score, reserve, permit, pre-bind, bind)
// with two plugins over 100 nodes, to keep the runtime's own cost and
// allocations per cycle in view.
func BenchmarkCycle(b *testing.B) {
	score := func(string) int64 { return 7 }
	f, err := New(Options{ProfileName: "p", Parallelism: 1, Plugins: multi("Sort", "A", "B"),
		Registry: registry(&sorter{name: "Sort"}, every{&fake{name: "A", score: score, normalize: true}}, every{&fake{name: "B", score: score}})})
	if err != nil {
		b.Fatal(err)
	}
	nodes := make([]*framework.NodeInfo, 100)
	for i := range nodes {
		nodes[i] = node(fmt.Sprintf("n%d", i))
	}
	ctx := context.Background()
	pod := &corev1.Pod{}
	b.ReportAllocs()
	for b.Loop() {
		state := framework.NewCycleState()
		if _, st := f.RunPreFilterPlugins(ctx, state, pod); !st.IsSuccess() {
			b.Fatal(st.AsError())
		}
		for _, ni := range nodes {
			if st := f.RunFilterPlugins(ctx, state, pod, ni); !st.IsSuccess() {
				b.Fatal(st.AsError())
			}
		}
		if st := f.RunPreScorePlugins(ctx, state, pod, nodes); !st.IsSuccess() {
			b.Fatal(st.AsError())
		}
		if _, st := f.RunScorePlugins(ctx, state, pod, nodes); !st.IsSuccess() {
			b.Fatal(st.AsError())
		}
		if st := f.RunReservePluginsReserve(ctx, state, pod, "n0"); !st.IsSuccess() {
			b.Fatal(st.AsError())
		}
		if st := f.RunPermitPlugins(ctx, state, pod, "n0"); !st.IsSuccess() {
			b.Fatal(st.AsError())
		}
		if st := f.RunPreBindPlugins(ctx, state, pod, "n0"); !st.IsSuccess() {
			b.Fatal(st.AsError())
		}
		if st := f.RunBindPlugins(ctx, state, pod, "n0"); !st.IsSuccess() {
			b.Fatal(st.AsError())
		}
		f.RunPostBindPlugins(ctx, state, pod, "n0")
	}
}
