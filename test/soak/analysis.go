package soak

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Point is one sample of one metric of one daemon: the time since the run
// started and the value.
type Point struct {
	At    time.Duration
	Value float64
}

// Threshold is how much a metric may grow over the judged window, as
// projected by the fitted line. Growth fails only when it is over every
// bound that is set: more than Relative times the warm-up median and more
// than Absolute. A zero field sets no bound of its own.
type Threshold struct {
	Relative float64
	Absolute float64
}

// limit is the growth allowed for a metric whose warm-up median is base.
func (th Threshold) limit(base float64) float64 {
	return max(th.Relative*math.Abs(base), th.Absolute)
}

// Warmup is the part of a run of length d that is not judged: its first
// fifth, and at least two minutes.
func Warmup(d time.Duration) time.Duration {
	return max(d/5, 2*time.Minute)
}

// minJudged is the fewest samples after the warm-up a line is fitted to.
const minJudged = 3

// Verdict is the judgement of one metric of one daemon.
type Verdict struct {
	// Base is the median of the warm-up samples; Last the last sample.
	Base, Last float64
	// Slope is the fitted line's growth per hour.
	Slope float64
	// Growth is the fitted line's growth over the judged window, and
	// Limit the growth allowed.
	Growth, Limit float64
	// Window is the time from the first to the last judged sample;
	// Samples how many there are.
	Window  time.Duration
	Samples int
	// Grows is true when Growth is over Limit; Reason says why a metric
	// could not be judged (too few samples), which is a failure too.
	Grows  bool
	Reason string
}

// Failed reports whether the verdict fails the run.
func (v Verdict) Failed() bool { return v.Grows || v.Reason != "" }

// Judge fits a least-squares line to the points after warmup and compares
// the growth it projects over their window with th's bound on the median
// of the points before. points must be in time order.
func Judge(points []Point, warmup time.Duration, th Threshold) Verdict {
	var before, after []Point
	for _, p := range points {
		if p.At < warmup {
			before = append(before, p)
		} else {
			after = append(after, p)
		}
	}
	v := Verdict{Samples: len(after)}
	if len(points) > 0 {
		v.Last = points[len(points)-1].Value
	}
	if len(before) == 0 {
		v.Reason = "no sample in the warm-up"
		return v
	}
	v.Base = median(before)
	if len(after) < minJudged {
		v.Reason = fmt.Sprintf("%d samples after the warm-up, need %d", len(after), minJudged)
		return v
	}
	slope := fitSlope(after) // per second
	v.Window = after[len(after)-1].At - after[0].At
	v.Slope = slope * time.Hour.Seconds()
	v.Growth = slope * v.Window.Seconds()
	v.Limit = th.limit(v.Base)
	v.Grows = v.Growth > v.Limit
	return v
}

// median is the median value of points (which it does not reorder).
func median(points []Point) float64 {
	vs := make([]float64, len(points))
	for i, p := range points {
		vs[i] = p.Value
	}
	slices.Sort(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2]
	}
	return (vs[n/2-1] + vs[n/2]) / 2
}

// fitSlope is the slope, per second, of the least-squares line through
// points; 0 when they all share one time.
func fitSlope(points []Point) float64 {
	n := float64(len(points))
	var sx, sy float64
	for _, p := range points {
		sx += p.At.Seconds()
		sy += p.Value
	}
	mx, my := sx/n, sy/n
	var sxy, sxx float64
	for _, p := range points {
		dx := p.At.Seconds() - mx
		sxy += dx * (p.Value - my)
		sxx += dx * dx
	}
	if sxx == 0 {
		return 0
	}
	return sxy / sxx
}
