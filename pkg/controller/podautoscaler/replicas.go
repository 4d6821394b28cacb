package podautoscaler

import (
	"errors"
	"fmt"
	"math"
	"time"

	corev1 "platform.io/client/api/core/v1"
)

// PodUsage is one pod's metric sample: the summed usage of its containers
// (milli-units) and the interval it covers.
type PodUsage struct {
	Value     int64
	Timestamp time.Time
	Window    time.Duration
}

// Calculator computes replica counts from pod usage with upstream's rules.
// It is pure: the time comes from Now.
type Calculator struct {
	// Tolerance is the usage ratio band around 1.0 inside which nothing changes.
	Tolerance float64
	// CPUInitializationPeriod is how long after start a pod's CPU sample
	// may be skipped for readiness reasons.
	CPUInitializationPeriod time.Duration
	// InitialReadinessDelay is how long after start a not-ready pod counts
	// as not yet ready rather than broken.
	InitialReadinessDelay time.Duration
	Now                   func() time.Time
}

// Errors of the calculation.
var (
	ErrNoPods         = errors.New("no pods returned by selector while calculating replica count")
	ErrNoMetrics      = errors.New("did not receive metrics for targeted pods (pods might be unready)")
	ErrNoKnownPods    = errors.New("no metrics returned matched known pods")
	errMissingRequest = errors.New("missing request")
)

// Utilization is the outcome of a utilization computation.
type Utilization struct {
	Replicas int32
	// Percent is the average usage as a percentage of the requests.
	Percent int32
	// Average is the average raw usage (milli-units) per pod with a sample.
	Average int64
}

// podGroups sorts pods by how their samples count.
type podGroups struct {
	ready                     int
	unready, missing, ignored map[string]bool
}

// group classifies pods as upstream: deleted or failed pods are ignored;
// pending pods are unready; pods without a sample are missing; for CPU, a
// pod still initializing whose sample may predate its readiness is unready.
func (c *Calculator) group(pods []*corev1.Pod, usage map[string]PodUsage, res corev1.ResourceName) podGroups {
	g := podGroups{unready: map[string]bool{}, missing: map[string]bool{}, ignored: map[string]bool{}}
	now := c.Now()
	for _, p := range pods {
		if p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodFailed {
			g.ignored[p.Name] = true
			continue
		}
		if p.Status.Phase == corev1.PodPending {
			g.unready[p.Name] = true
			continue
		}
		sample, ok := usage[p.Name]
		if !ok {
			g.missing[p.Name] = true
			continue
		}
		if res == corev1.ResourceCPU && c.cpuUnready(p, sample, now) {
			g.unready[p.Name] = true
			continue
		}
		g.ready++
	}
	return g
}

func (c *Calculator) cpuUnready(p *corev1.Pod, sample PodUsage, now time.Time) bool {
	var ready *corev1.PodCondition
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == corev1.PodReady {
			ready = &p.Status.Conditions[i]
		}
	}
	if ready == nil || p.Status.StartTime == nil {
		return true
	}
	start := p.Status.StartTime.Time
	if start.Add(c.CPUInitializationPeriod).After(now) {
		// Still initializing: skip a not-ready pod, and a sample that may
		// cover time before the pod became ready.
		return ready.Status == corev1.ConditionFalse || sample.Timestamp.Before(ready.LastTransitionTime.Time.Add(sample.Window))
	}
	// Past initialization: a pod that has not turned ready since shortly
	// after starting is still coming up.
	return ready.Status == corev1.ConditionFalse && start.Add(c.InitialReadinessDelay).After(ready.LastTransitionTime.Time)
}

// requests sums each pod's container requests of res (milli-units); a
// container without one is an error, as utilization is then undefined.
func requests(pods []*corev1.Pod, res corev1.ResourceName) (map[string]int64, error) {
	out := make(map[string]int64, len(pods))
	for _, p := range pods {
		var sum int64
		for _, ctr := range p.Spec.Containers {
			q, ok := ctr.Resources.Requests[res]
			if !ok {
				return nil, fmt.Errorf("%w for %s in container %s of Pod %s", errMissingRequest, res, ctr.Name, p.Name)
			}
			sum += q.MilliValue()
		}
		out[p.Name] = sum
	}
	return out, nil
}

// utilizationRatio returns usage/target over the pods with both a sample
// and a request, the utilization percentage and the raw average.
func utilizationRatio(usage map[string]PodUsage, req map[string]int64, target int32) (float64, int32, int64, error) {
	var used, requested int64
	n := 0
	for name, u := range usage {
		r, ok := req[name]
		if !ok {
			continue
		}
		used += u.Value
		requested += r
		n++
	}
	if requested == 0 {
		return 0, 0, 0, ErrNoKnownPods
	}
	pct := int32(used * 100 / requested)
	return float64(pct) / float64(target), pct, used / int64(n), nil
}

// UtilizationReplicas computes the replica count for a target utilization
// (percent of requests) of res, given the target's current replicas, its
// pods and the samples by pod name.
func (c *Calculator) UtilizationReplicas(current int32, target int32, res corev1.ResourceName, pods []*corev1.Pod, samples map[string]PodUsage) (Utilization, error) {
	if len(pods) == 0 {
		return Utilization{}, ErrNoPods
	}
	usage := usable(samples, pods)
	g := c.group(pods, usage, res)
	drop(usage, g.ignored)
	drop(usage, g.unready)
	if len(usage) == 0 {
		return Utilization{}, ErrNoMetrics
	}
	req, err := requests(pods, res)
	if err != nil {
		return Utilization{}, err
	}
	ratio, pct, avg, err := utilizationRatio(usage, req, target)
	if err != nil {
		return Utilization{}, err
	}
	out := Utilization{Replicas: current, Percent: pct, Average: avg}
	fill := func(name string) int64 { return req[name] * int64(max(100, target)) / 100 }
	newRatio := func(u map[string]PodUsage) (float64, error) {
		r, _, _, err := utilizationRatio(u, req, target)
		return r, err
	}
	out.Replicas, err = c.adjust(current, ratio, g, usage, fill, newRatio)
	return out, err
}

// AverageValueReplicas computes the replica count for a target average
// value (milli-units per pod) of res.
func (c *Calculator) AverageValueReplicas(current int32, target int64, res corev1.ResourceName, pods []*corev1.Pod, samples map[string]PodUsage) (Utilization, error) {
	if len(pods) == 0 {
		return Utilization{}, ErrNoPods
	}
	if target <= 0 {
		return Utilization{}, fmt.Errorf("target average value %dm is not positive", target)
	}
	usage := usable(samples, pods)
	g := c.group(pods, usage, res)
	drop(usage, g.ignored)
	drop(usage, g.unready)
	if len(usage) == 0 {
		return Utilization{}, ErrNoMetrics
	}
	ratioOf := func(u map[string]PodUsage) (float64, int64) {
		var sum int64
		for _, s := range u {
			sum += s.Value
		}
		avg := sum / int64(len(u))
		return float64(avg) / float64(target), avg
	}
	ratio, avg := ratioOf(usage)
	out := Utilization{Replicas: current, Average: avg}
	var err error
	out.Replicas, err = c.adjust(current, ratio, g, usage, func(string) int64 { return target },
		func(u map[string]PodUsage) (float64, error) { r, _ := ratioOf(u); return r, nil })
	return out, err
}

// adjust turns a usage ratio into a replica count. With no missing or
// held-back pods it is ceil(ratio * ready) outside the tolerance. Otherwise
// the ratio is recomputed conservatively (missing pods count as fill on a
// scale-down and as zero on a scale-up; unready pods as zero on a
// scale-up), and the move is dropped if that flips its direction or lands
// inside the tolerance.
func (c *Calculator) adjust(current int32, ratio float64, g podGroups, usage map[string]PodUsage,
	fill func(name string) int64, ratioOf func(map[string]PodUsage) (float64, error)) (int32, error) {
	upWithUnready := len(g.unready) > 0 && ratio > 1.0
	if !upWithUnready && len(g.missing) == 0 {
		if math.Abs(1.0-ratio) <= c.Tolerance {
			return current, nil
		}
		return int32(math.Ceil(ratio * float64(g.ready))), nil
	}
	if len(g.missing) > 0 {
		for name := range g.missing {
			switch {
			case ratio < 1.0:
				usage[name] = PodUsage{Value: fill(name)}
			case ratio > 1.0:
				usage[name] = PodUsage{}
			}
		}
	}
	if upWithUnready {
		for name := range g.unready {
			usage[name] = PodUsage{}
		}
	}
	newRatio, err := ratioOf(usage)
	if err != nil {
		return 0, err
	}
	if math.Abs(1.0-newRatio) <= c.Tolerance || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		return current, nil
	}
	n := int32(math.Ceil(newRatio * float64(len(usage))))
	if (newRatio < 1.0 && n > current) || (newRatio > 1.0 && n < current) {
		return current, nil
	}
	return n, nil
}

// usable copies the samples of the listed pods (samples of pods the
// selector no longer matches are left out).
func usable(samples map[string]PodUsage, pods []*corev1.Pod) map[string]PodUsage {
	out := make(map[string]PodUsage, len(samples))
	for _, p := range pods {
		if s, ok := samples[p.Name]; ok {
			out[p.Name] = s
		}
	}
	return out
}

func drop(usage map[string]PodUsage, names map[string]bool) {
	for n := range names {
		delete(usage, n)
	}
}
