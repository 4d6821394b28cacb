package podautoscaler

import (
	"testing"
	"time"

	autoscalingv2 "platform.io/client/api/autoscaling/v2"
)

// clock is a settable time source.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time          { return c.now }
func (c *clock) advance(d time.Duration) { c.now = c.now.Add(d) }
func defaultRules(downWindow int32) Rules {
	return Rules{Up: autoscalingv2.DefaultScaleUp(), Down: autoscalingv2.DefaultScaleDown(downWindow)}
}

// step is one evaluation: after advancing the clock by after, the metrics
// recommend proposed; the normalized count is want (and is then applied).
type step struct {
	after    time.Duration
	proposed int32
	want     int32
	limited  string // ScalingLimited reason when limited, "" when not
}

func TestNormalize(t *testing.T) {
	sel := func(s autoscalingv2.ScalingPolicySelect) *autoscalingv2.ScalingPolicySelect { return &s }
	i32 := func(v int32) *int32 { return &v }
	tests := []struct {
		name     string
		rules    Rules
		min, max int32
		start    int32
		steps    []step
	}{
		{"scale-up is immediate; scale-down waits for the window", defaultRules(300), 1, 10, 2, []step{
			{0, 4, 4, ""},
			{15 * time.Second, 1, 4, ""},
			{4 * time.Minute, 1, 4, ""},
			{61 * time.Second, 1, 1, ""}, // the 4 of t=0 has left the 300s window
		}},
		{"highest recommendation in the window wins", defaultRules(60), 1, 10, 5, []step{
			{0, 5, 5, ""},
			{20 * time.Second, 3, 5, ""},
			{20 * time.Second, 2, 5, ""},
			{21 * time.Second, 2, 3, ""}, // 5 (t=0) left; 3 (t=20s) still in
			{20 * time.Second, 2, 2, ""},
		}},
		{"scale-up rate: max of 4 pods and 100% per 15s", defaultRules(0), 1, 100, 1, []step{
			{0, 50, 5, reasonScaleUpLimit},               // 1+4 beats 1*2
			{5 * time.Second, 50, 5, reasonScaleUpLimit}, // still inside the period that started at 1
			{10 * time.Second, 50, 10, reasonScaleUpLimit},
			{15 * time.Second, 50, 20, reasonScaleUpLimit},
		}},
		{"max clamps", defaultRules(0), 1, 6, 4, []step{{0, 8, 6, reasonTooManyReplicas}}},
		{"min clamps", defaultRules(0), 3, 10, 4, []step{{0, 1, 3, reasonTooFewReplicas}, {15 * time.Second, 1, 3, reasonTooFewReplicas}}},
		{"min select and pod policy bound scale-down", Rules{
			Up: autoscalingv2.DefaultScaleUp(),
			Down: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: i32(0), SelectPolicy: sel(autoscalingv2.MinChangePolicySelect),
				Policies: []autoscalingv2.HPAScalingPolicy{{Type: "Pods", Value: 1, PeriodSeconds: 60}, {Type: "Percent", Value: 50, PeriodSeconds: 60}}},
		}, 1, 10, 10, []step{
			{0, 2, 9, reasonScaleDownLimit},
			{30 * time.Second, 2, 9, reasonScaleDownLimit}, // 1 pod per 60s already used
			{31 * time.Second, 2, 8, reasonScaleDownLimit},
		}},
		{"disabled direction", Rules{
			Up: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: i32(0), SelectPolicy: sel(autoscalingv2.DisabledPolicySelect),
				Policies: []autoscalingv2.HPAScalingPolicy{{Type: "Pods", Value: 4, PeriodSeconds: 15}}},
			Down: autoscalingv2.DefaultScaleDown(0),
		}, 1, 10, 3, []step{{0, 6, 3, reasonScaleUpLimit}, {time.Minute, 1, 1, ""}}},
		{"scale-up stabilization takes the lowest", Rules{
			Up: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: i32(60), SelectPolicy: sel(autoscalingv2.MaxChangePolicySelect),
				Policies: []autoscalingv2.HPAScalingPolicy{{Type: "Pods", Value: 100, PeriodSeconds: 15}}},
			Down: autoscalingv2.DefaultScaleDown(0),
		}, 1, 20, 2, []step{{0, 2, 2, ""}, {10 * time.Second, 8, 2, ""}, {51 * time.Second, 8, 8, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &clock{now: t0}
			h := NewHistory(c.Now)
			current := tt.start
			for i, s := range tt.steps {
				c.advance(s.after)
				d := h.Normalize("ns/web", tt.rules, tt.min, tt.max, current, s.proposed)
				if d.Replicas != s.want {
					t.Fatalf("step %d: %d replicas, want %d (%+v)", i, d.Replicas, s.want, d)
				}
				if got := map[bool]string{true: d.LimitReason}[d.Limited]; got != s.limited {
					t.Errorf("step %d: limited %q, want %q", i, got, s.limited)
				}
				if d.Replicas != current {
					h.Record("ns/web", tt.rules, current, d.Replicas)
					current = d.Replicas
				}
			}
		})
	}
}

func TestForget(t *testing.T) {
	c := &clock{now: t0}
	h := NewHistory(c.Now)
	h.Normalize("ns/a", defaultRules(300), 1, 10, 5, 5)
	h.Forget("ns/a")
	if d := h.Normalize("ns/a", defaultRules(300), 1, 10, 5, 1); d.Replicas != 1 {
		t.Errorf("after Forget the old recommendation still holds: %d", d.Replicas)
	}
}
