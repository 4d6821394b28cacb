package nodelifecycle

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestEvictionTime(t *testing.T) {
	secs := func(n int64) *int64 { return &n }
	added := meta.NewTime(t0)
	unreachable := corev1.Taint{Key: corev1.TaintNodeUnreachable, Effect: corev1.TaintEffectNoExecute, TimeAdded: &added}
	custom := corev1.Taint{Key: "example.com/drain", Effect: corev1.TaintEffectNoExecute, TimeAdded: &added}
	tol := func(key string, s *int64) corev1.Toleration {
		return corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: s}
	}
	cases := []struct {
		name   string
		taints []corev1.Taint
		tols   []corev1.Toleration
		want   time.Duration
		evict  bool
	}{
		{"no NoExecute taint", []corev1.Taint{{Key: corev1.TaintNodeUnreachable, Effect: corev1.TaintEffectNoSchedule}}, nil, 0, false},
		{"tolerated for 30s", []corev1.Taint{unreachable}, []corev1.Toleration{tol(corev1.TaintNodeUnreachable, secs(30))}, 30 * time.Second, true},
		{"tolerated forever", []corev1.Taint{unreachable}, []corev1.Toleration{tol(corev1.TaintNodeUnreachable, nil)}, 0, false},
		{"least seconds of matching tolerations", []corev1.Taint{unreachable}, []corev1.Toleration{tol(corev1.TaintNodeUnreachable, nil), tol("", secs(5))}, 5 * time.Second, true},
		{"negative seconds count as 0", []corev1.Taint{unreachable}, []corev1.Toleration{tol(corev1.TaintNodeUnreachable, secs(-3))}, 0, true},
		{"no toleration of a lifecycle taint: pod eviction timeout", []corev1.Taint{unreachable}, nil, time.Minute, true},
		{"not tolerating another taint: at once", []corev1.Taint{custom, unreachable}, []corev1.Toleration{tol(corev1.TaintNodeUnreachable, nil)}, 0, true},
		{"earliest taint wins", []corev1.Taint{unreachable, custom}, []corev1.Toleration{tol(corev1.TaintNodeUnreachable, secs(100)), tol("example.com/drain", secs(10))}, 10 * time.Second, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: corev1.PodSpec{Tolerations: tc.tols}}
			at, evict := evictionTime(pod, tc.taints, func(corev1.Taint) time.Time { return t0.Add(time.Hour) }, time.Minute)
			if evict != tc.evict || (evict && !at.Equal(t0.Add(tc.want))) {
				t.Errorf("got %v %v, want %v %v", at.Sub(t0), evict, tc.want, tc.evict)
			}
		})
	}
}

func TestComputeZoneStateAndRates(t *testing.T) {
	T, F, U := corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown
	o := NewOptions()
	cases := []struct {
		name  string
		ready []corev1.ConditionStatus
		want  zoneState
		rate  float64
	}{
		{"all ready", []corev1.ConditionStatus{T, T, T}, stateNormal, 0.1},
		{"two down of three is not enough nodes", []corev1.ConditionStatus{T, F, U}, stateNormal, 0.1},
		{"three of four down", []corev1.ConditionStatus{T, F, U, U}, statePartialDisruption, 0},
		{"three of six down is under 55%", []corev1.ConditionStatus{T, T, T, F, U, U}, stateNormal, 0.1},
		{"none ready", []corev1.ConditionStatus{F, U}, stateFullDisruption, 0.1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := computeZoneState(tc.ready, o.UnhealthyZoneThreshold)
			if got != tc.want || o.rateFor(got, len(tc.ready)) != tc.rate {
				t.Errorf("state %s rate %v, want %s %v", got, o.rateFor(got, len(tc.ready)), tc.want, tc.rate)
			}
		})
	}
	if r := o.rateFor(statePartialDisruption, 51); r != 0.01 {
		t.Errorf("large partially disrupted zone rate %v, want the secondary 0.01", r)
	}
}

func TestBucket(t *testing.T) {
	b := newBucket(0.5, t0)
	var got []bool
	for _, d := range []time.Duration{0, 0, time.Second, 2 * time.Second, 2 * time.Second} {
		got = append(got, b.take(t0.Add(d)))
	}
	if diff := cmp.Diff([]bool{true, false, false, true, false}, got); diff != "" {
		t.Errorf("takes (-want +got):\n%s", diff)
	}
	b.setRate(0, t0.Add(10*time.Second))
	if b.take(t0.Add(time.Hour)) {
		t.Error("a zero rate gave a token")
	}
}

func TestHealthAndMarkUnknown(t *testing.T) {
	o := NewOptions()
	beat := meta.NewTime(t0)
	node := &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "n", CreationTimestamp: meta.NewTime(t0)},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: beat, LastTransitionTime: beat}}}}
	renew := meta.MicroTime{Time: t0}
	lease := &coordinationv1.Lease{Spec: coordinationv1.LeaseSpec{RenewTime: &renew}}
	h := &health{}
	grace := h.observe(node, lease, t0, o)
	if grace != o.NodeMonitorGracePeriod || h.silent(t0.Add(40*time.Second), grace) || !h.silent(t0.Add(41*time.Second), grace) {
		t.Fatalf("grace %v, probe %v", grace, h.probe)
	}
	// A renewed lease counts as a heartbeat on the loop's clock; an old one
	// does not.
	renew2 := meta.MicroTime{Time: t0.Add(30 * time.Second)}
	h.observe(node, &coordinationv1.Lease{Spec: coordinationv1.LeaseSpec{RenewTime: &renew2}}, t0.Add(35*time.Second), o)
	h.observe(node, &coordinationv1.Lease{Spec: coordinationv1.LeaseSpec{RenewTime: &renew2}}, t0.Add(60*time.Second), o)
	if h.silent(t0.Add(75*time.Second), grace) || !h.silent(t0.Add(76*time.Second), grace) {
		t.Errorf("probe %v after the renewal at 35s", h.probe.Sub(t0))
	}
	fresh := &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "new", CreationTimestamp: meta.NewTime(t0)}}
	h2 := &health{}
	if g := h2.observe(fresh, nil, t0.Add(30*time.Second), o); g != o.NodeStartupGracePeriod || h2.silent(t0.Add(time.Minute), g) || !h2.silent(t0.Add(61*time.Second), g) {
		t.Errorf("startup grace %v from creation, probe %v", g, h2.probe.Sub(t0))
	}

	conds, changed := markUnknown(node.Status.Conditions, t0.Add(time.Minute))
	if !changed || len(conds) != 4 || node.Status.Conditions[0].Status != corev1.ConditionTrue {
		t.Fatalf("conditions %+v changed=%v (input must stay)", conds, changed)
	}
	for _, c := range conds {
		want := reasonStatusNeverUpdated
		if c.Type == corev1.NodeReady {
			want = reasonStatusUnknown
		}
		if c.Status != corev1.ConditionUnknown || c.Reason != want {
			t.Errorf("%s: %s %s", c.Type, c.Status, c.Reason)
		}
	}
	if _, again := markUnknown(conds, t0.Add(2*time.Minute)); again {
		t.Error("marking Unknown twice changed something")
	}
}

func TestTaints(t *testing.T) {
	node := &corev1.Node{Spec: corev1.NodeSpec{Unschedulable: true}, Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{
		{Type: corev1.NodeReady, Status: corev1.ConditionUnknown}, {Type: corev1.NodeMemoryPressure, Status: corev1.ConditionTrue},
		{Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse}}}}
	want := []string{corev1.TaintNodeUnreachable, corev1.TaintNodeMemoryPressure, corev1.TaintNodeUnschedulable}
	if diff := cmp.Diff(want, wantNoSchedule(node)); diff != "" {
		t.Errorf("NoSchedule keys (-want +got):\n%s", diff)
	}
	user := corev1.Taint{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoSchedule}
	stale := corev1.Taint{Key: corev1.TaintNodeDiskPressure, Effect: corev1.TaintEffectNoSchedule}
	got, changed := withNoSchedule([]corev1.Taint{user, stale}, want, t0)
	if !changed || len(got) != 4 || got[0] != user {
		t.Errorf("NoSchedule taints %+v", got)
	}
	if _, again := withNoSchedule(got, want, t0); again {
		t.Error("second application changed the taints")
	}
	ne, changed := withNoExecute(got, corev1.TaintNodeUnreachable, t0)
	if !changed || noExecuteKey(&corev1.Node{Spec: corev1.NodeSpec{Taints: ne}}) != corev1.TaintNodeUnreachable || ne[len(ne)-1].TimeAdded == nil {
		t.Errorf("NoExecute taints %+v", ne)
	}
	swapped, _ := withNoExecute(ne, corev1.TaintNodeNotReady, t0)
	if noExecuteKey(&corev1.Node{Spec: corev1.NodeSpec{Taints: swapped}}) != corev1.TaintNodeNotReady || len(swapped) != len(ne) {
		t.Errorf("swapped %+v", swapped)
	}
	cleared, _ := withNoExecute(swapped, "", t0)
	if noExecuteKey(&corev1.Node{Spec: corev1.NodeSpec{Taints: cleared}}) != "" || len(cleared) != len(got) {
		t.Errorf("cleared %+v", cleared)
	}
}

func TestOptionsValidate(t *testing.T) {
	o := NewOptions()
	if errs := o.Validate(); len(errs) != 0 {
		t.Fatalf("defaults: %v", errs)
	}
	o.NodeMonitorPeriod, o.UnhealthyZoneThreshold, o.NodeEvictionRate = 0, 1.5, -1
	if errs := o.Validate(); len(errs) != 3 {
		t.Errorf("errors %v, want 3", errs)
	}
}
