package nodeconditions

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

const (
	tru     = corev1.ConditionTrue
	fals    = corev1.ConditionFalse
	unknown = corev1.ConditionUnknown
)

type req = map[corev1.ResourceName]string

func reject(reasons ...string) *framework.Status {
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, reasons...)
}

func bounded(key string, effect corev1.TaintEffect, seconds int64) corev1.Toleration {
	return corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists, Effect: effect, TolerationSeconds: &seconds}
}

func forever(key string, effect corev1.TaintEffect) corev1.Toleration {
	return corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists, Effect: effect}
}

func TestFilter(t *testing.T) {
	bestEffort := st.MakePod().Name("be").Container("img").Obj()
	burstable := st.MakePod().Name("bu").Req(req{corev1.ResourceCPU: "100m"}).Obj()
	// The tolerations the API server gives every pod by default.
	defaulted := st.MakePod().Name("d").Container("img").Tolerations([]corev1.Toleration{
		bounded(corev1.TaintNodeNotReady, corev1.TaintEffectNoExecute, 300),
		bounded(corev1.TaintNodeUnreachable, corev1.TaintEffectNoExecute, 300),
	}).Obj()
	// The tolerations the DaemonSet loop gives its pods.
	daemon := st.MakePod().Name("ds").Container("img").Tolerations([]corev1.Toleration{
		forever(corev1.TaintNodeNotReady, corev1.TaintEffectNoExecute),
		forever(corev1.TaintNodeUnreachable, corev1.TaintEffectNoExecute),
		forever(corev1.TaintNodeDiskPressure, corev1.TaintEffectNoSchedule),
		forever(corev1.TaintNodeMemoryPressure, corev1.TaintEffectNoSchedule),
		forever(corev1.TaintNodePIDPressure, corev1.TaintEffectNoSchedule),
	}).Obj()
	type cond struct {
		t corev1.NodeConditionType
		s corev1.ConditionStatus
	}
	tests := []struct {
		name  string
		pod   *corev1.Pod
		conds []cond
		want  *framework.Status
	}{
		{name: "no conditions", pod: bestEffort},
		{name: "ready", pod: bestEffort, conds: []cond{{corev1.NodeReady, tru}}},
		{name: "not ready", pod: burstable, conds: []cond{{corev1.NodeReady, fals}}, want: reject(ErrReasonNotReady)},
		{name: "ready unknown", pod: burstable, conds: []cond{{corev1.NodeReady, unknown}}, want: reject(ErrReasonNotReady)},
		{name: "network unavailable", pod: burstable, conds: []cond{{corev1.NodeReady, tru}, {corev1.NodeNetworkUnavailable, tru}}, want: reject(ErrReasonNetworkUnavailable)},
		{name: "network available", pod: burstable, conds: []cond{{corev1.NodeNetworkUnavailable, fals}}},
		{name: "memory pressure, best effort", pod: bestEffort, conds: []cond{{corev1.NodeMemoryPressure, tru}}, want: reject(ErrReasonMemoryPressure)},
		{name: "memory pressure, burstable", pod: burstable, conds: []cond{{corev1.NodeMemoryPressure, tru}}},
		{name: "memory pressure unknown", pod: bestEffort, conds: []cond{{corev1.NodeMemoryPressure, unknown}}},
		{name: "disk pressure", pod: burstable, conds: []cond{{corev1.NodeDiskPressure, tru}}, want: reject(ErrReasonDiskPressure)},
		{name: "pid pressure", pod: burstable, conds: []cond{{corev1.NodePIDPressure, tru}}, want: reject(ErrReasonPIDPressure)},
		{
			name:  "all failures listed",
			pod:   bestEffort,
			conds: []cond{{corev1.NodePIDPressure, tru}, {corev1.NodeReady, fals}, {corev1.NodeMemoryPressure, tru}, {corev1.NodeDiskPressure, tru}},
			want:  reject(ErrReasonNotReady, ErrReasonMemoryPressure, ErrReasonDiskPressure, ErrReasonPIDPressure),
		},
		{name: "default bounded tolerations do not pass not ready", pod: defaulted, conds: []cond{{corev1.NodeReady, fals}}, want: reject(ErrReasonNotReady)},
		{name: "default bounded tolerations do not pass unreachable", pod: defaulted, conds: []cond{{corev1.NodeReady, unknown}}, want: reject(ErrReasonNotReady)},
		{
			name:  "daemon pod passes not ready, pressure",
			pod:   daemon,
			conds: []cond{{corev1.NodeReady, fals}, {corev1.NodeMemoryPressure, tru}, {corev1.NodeDiskPressure, tru}, {corev1.NodePIDPressure, tru}},
		},
		{name: "daemon pod passes unreachable", pod: daemon, conds: []cond{{corev1.NodeReady, unknown}}},
		{name: "daemon pod without network toleration", pod: daemon, conds: []cond{{corev1.NodeNetworkUnavailable, tru}}, want: reject(ErrReasonNetworkUnavailable)},
		{
			name: "NoSchedule toleration of network-unavailable passes",
			pod: st.MakePod().Name("hn").Container("img").Tolerations([]corev1.Toleration{
				forever(corev1.TaintNodeNetworkUnavailable, corev1.TaintEffectNoSchedule),
			}).Obj(),
			conds: []cond{{corev1.NodeNetworkUnavailable, tru}},
		},
		{
			name:  "not-ready toleration does not pass unreachable",
			pod:   st.MakePod().Name("nr").Container("img").Tolerations([]corev1.Toleration{forever(corev1.TaintNodeNotReady, "")}).Obj(),
			conds: []cond{{corev1.NodeReady, unknown}},
			want:  reject(ErrReasonNotReady),
		},
		{
			name:  "toleration of everything passes",
			pod:   st.MakePod().Name("all").Container("img").Tolerations([]corev1.Toleration{{Operator: corev1.TolerationOpExists}}).Obj(),
			conds: []cond{{corev1.NodeReady, fals}, {corev1.NodeDiskPressure, tru}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := st.MakeNode().Name("n")
			for _, c := range tt.conds {
				w.Condition(c.t, c.s)
			}
			p, err := New(nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := p.(*NodeConditions).Filter(context.Background(), framework.NewCycleState(), tt.pod, st.NewNodeInfo(w.Obj()))
			if !got.Equal(tt.want) {
				t.Errorf("Filter = %v %q, want %v %q", got.Code(), got.Reasons(), tt.want.Code(), tt.want.Reasons())
			}
		})
	}
}

func TestIsBestEffort(t *testing.T) {
	tests := []struct {
		name string
		pod  *corev1.Pod
		want bool
	}{
		{name: "no containers' resources", pod: st.MakePod().Container("a").Container("b").Obj(), want: true},
		{name: "cpu request", pod: st.MakePod().Req(req{corev1.ResourceCPU: "1m"}).Obj()},
		{name: "memory limit only", pod: st.MakePod().Lim(req{corev1.ResourceMemory: "1Mi"}).Obj()},
		{name: "init container request", pod: st.MakePod().Container("a").InitReq(req{corev1.ResourceMemory: "1Mi"}).Obj()},
		{name: "zero requests", pod: st.MakePod().Req(req{corev1.ResourceCPU: "0", corev1.ResourceMemory: "0"}).Obj(), want: true},
		{name: "only extended resources", pod: st.MakePod().Req(req{"example.com/gpu": "1", corev1.ResourceEphemeralStorage: "1Gi"}).Obj(), want: true},
		{
			name: "pod-level resources",
			pod: func() *corev1.Pod {
				p := st.MakePod().Container("a").Obj()
				p.Spec.Resources = &corev1.ResourceRequirements{Limits: st.ResourceList(req{corev1.ResourceCPU: "1"})}
				return p
			}(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsBestEffort(tt.pod); got != tt.want {
				t.Errorf("IsBestEffort = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNewRejectsArgs(t *testing.T) {
	if _, err := New(json.RawMessage(`{"strict": false}`), nil); err == nil {
		t.Errorf("New accepted an unknown field")
	}
}

func TestEvents(t *testing.T) {
	ev := (&NodeConditions{}).EventsToRegister()[0]
	if !ev.Match(framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.UpdateNodeCondition}) ||
		!ev.Match(framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.Add}) ||
		ev.Match(framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.UpdateNodeLabel}) {
		t.Errorf("events %+v", ev)
	}
}

// BenchmarkFilter filters a plain pod over 5,000 healthy nodes (Ready,
// no pressure), as every cycle does.
func BenchmarkFilter(b *testing.B) {
	pod := st.MakePod().Name("p").Req(req{corev1.ResourceCPU: "100m"}).Obj()
	nodes := make([]*framework.NodeInfo, 5000)
	for i := range nodes {
		w := st.MakeNode().Name(fmt.Sprintf("n%d", i)).Condition(corev1.NodeReady, tru)
		for _, c := range []corev1.NodeConditionType{corev1.NodeNetworkUnavailable, corev1.NodeMemoryPressure, corev1.NodeDiskPressure, corev1.NodePIDPressure} {
			w.Condition(c, fals)
		}
		nodes[i] = st.NewNodeInfo(w.Obj())
	}
	p, err := New(nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	pl := p.(*NodeConditions)
	ctx, state := context.Background(), framework.NewCycleState()
	b.ReportAllocs()
	for b.Loop() {
		for _, ni := range nodes {
			pl.Filter(ctx, state, pod, ni)
		}
	}
}
