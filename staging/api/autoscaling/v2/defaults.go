package v2

// Upstream's behavior defaults, shared by the API server's defaulting and
// the autoscaler (which applies them to an autoscaler without behavior).
const (
	// DefaultScaleDownStabilizationSeconds is the scale-down window the
	// API server fills in.
	DefaultScaleDownStabilizationSeconds = 300
	// DefaultCPUUtilization is the CPU target of an autoscaler that names no metric.
	DefaultCPUUtilization = 80
)

// DefaultScaleUp returns upstream's scale-up rules: no stabilization, the
// larger of 4 pods and 100% per 15 seconds.
func DefaultScaleUp() *HPAScalingRules {
	window, sel := int32(0), MaxChangePolicySelect
	return &HPAScalingRules{
		StabilizationWindowSeconds: &window,
		SelectPolicy:               &sel,
		Policies: []HPAScalingPolicy{
			{Type: PodsScalingPolicy, Value: 4, PeriodSeconds: 15},
			{Type: PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
}

// DefaultScaleDown returns upstream's scale-down rules with the given
// stabilization window: 100% per 15 seconds.
func DefaultScaleDown(windowSeconds int32) *HPAScalingRules {
	sel := MaxChangePolicySelect
	return &HPAScalingRules{
		StabilizationWindowSeconds: &windowSeconds,
		SelectPolicy:               &sel,
		Policies:                   []HPAScalingPolicy{{Type: PercentScalingPolicy, Value: 100, PeriodSeconds: 15}},
	}
}

// FillRules returns r with each unset field taken from def (def itself
// when r is nil).
func FillRules(r, def *HPAScalingRules) *HPAScalingRules {
	if r == nil {
		return def
	}
	if r.StabilizationWindowSeconds == nil {
		r.StabilizationWindowSeconds = def.StabilizationWindowSeconds
	}
	if r.SelectPolicy == nil {
		r.SelectPolicy = def.SelectPolicy
	}
	if r.Policies == nil {
		r.Policies = def.Policies
	}
	return r
}
