package table

import (
	"strconv"
	"time"

	"platform.io/client/api/meta"
)

const (
	day  = 24 * time.Hour
	year = 365 * day
)

// HumanDuration renders d in at most two units, coarser as it grows, the
// way kubectl shows ages: "45s", "5m30s", "42m", "3h5m", "30h", "3d4h",
// "120d", "3y10d", "9y". Up to two seconds into the future counts as "0s"
// (clocks disagree a little); more than that is "<invalid>".
func HumanDuration(d time.Duration) string {
	secs := int64(d / time.Second)
	switch {
	case secs < -1:
		return "<invalid>"
	case secs < 0:
		return "0s"
	case d < 2*time.Minute:
		return unit(secs, "s")
	case d < 10*time.Minute:
		return pair(d, time.Minute, "m", time.Second, "s")
	case d < 3*time.Hour:
		return unit(int64(d/time.Minute), "m")
	case d < 8*time.Hour:
		return pair(d, time.Hour, "h", time.Minute, "m")
	case d < 2*day:
		return unit(int64(d/time.Hour), "h")
	case d < 8*day:
		return pair(d, day, "d", time.Hour, "h")
	case d < 2*year:
		return unit(int64(d/day), "d")
	case d < 8*year:
		return pair(d, year, "y", day, "d")
	}
	return unit(int64(d/year), "y")
}

// unit renders n with its suffix.
func unit(n int64, suffix string) string {
	return strconv.FormatInt(n, 10) + suffix
}

// pair renders d as whole big units and the remaining whole small units,
// leaving the second out when it is zero.
func pair(d, big time.Duration, bigSuffix string, small time.Duration, smallSuffix string) string {
	s := unit(int64(d/big), bigSuffix)
	if rest := int64(d%big) / int64(small); rest != 0 {
		s += unit(rest, smallSuffix)
	}
	return s
}

// Since renders the time elapsed since t, or "<unknown>" for the zero time.
func Since(t time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(time.Since(t))
}

// Age renders an object's age from its creation timestamp.
func Age(m *meta.ObjectMeta) string {
	return Since(m.CreationTimestamp.Time)
}
