package cronjob

import (
	"errors"
	"fmt"
	"time"

	"github.com/robfig/cron/v3"

	batchv1 "platform.io/client/api/batch/v1"

	"platform.io/platform/pkg/cronspec"
)

// tooManyMissed is the number of missed start times over which a warning
// is recorded, as upstream.
const tooManyMissed = 100

// errUnknownTimeZone marks a spec.timeZone the process cannot load.
var errUnknownTimeZone = errors.New("unknown time zone")

// parseSchedule parses spec.schedule (five fields, or a predefined
// descriptor such as @daily or @every 1h, optionally prefixed with
// CRON_TZ=) in spec.timeZone when set, and returns it with its location.
func parseSchedule(spec *batchv1.CronJobSpec) (cron.Schedule, *time.Location, error) {
	loc := time.UTC
	expr := spec.Schedule
	if tz := spec.TimeZone; tz != nil {
		l, err := time.LoadLocation(*tz)
		if err != nil {
			return nil, nil, fmt.Errorf("%w %q: %w", errUnknownTimeZone, *tz, err)
		}
		loc = l
		expr = "TZ=" + *tz + " " + expr
	}
	s, err := cronspec.Parse(expr)
	if err != nil {
		return nil, nil, fmt.Errorf("unparseable schedule %q: %w", spec.Schedule, err)
	}
	return s, loc, nil
}

// slots is what the schedule says at one moment.
type slots struct {
	// due is the latest start time within the starting deadline that has
	// not run yet; zero when none.
	due time.Time
	// missed counts the start times since the last run that are not past
	// the deadline, due included, up to tooManyMissed+1.
	missed int
	// skipped counts start times passed over because they are older than
	// the starting deadline; lastSkipped is the latest of them.
	skipped     int
	lastSkipped time.Time
	// next is the first start time after now; zero when there is none.
	next time.Time
}

// compute finds the slots of s after last (the last run, or the
// CronJob's creation) as seen at now, with an optional starting deadline
// in seconds.
func compute(s cron.Schedule, last time.Time, deadline *int64, now time.Time) slots {
	var out slots
	out.next = s.Next(now)
	cutoff := last
	if deadline != nil {
		if d := now.Add(-time.Duration(*deadline) * time.Second); d.After(cutoff) {
			cutoff = d
		}
	}
	for t := s.Next(last); !t.IsZero() && !t.After(cutoff); t = s.Next(t) {
		out.skipped++
		out.lastSkipped = t
		if out.skipped > tooManyMissed {
			out.lastSkipped = latestAtOrBefore(s, t, cutoff)
			break
		}
	}
	first := s.Next(cutoff)
	if first.IsZero() || first.After(now) {
		return out
	}
	t := first
	for out.missed = 1; out.missed <= tooManyMissed; out.missed++ {
		n := s.Next(t)
		if n.IsZero() || n.After(now) {
			out.due = t
			return out
		}
		t = n
	}
	out.due = latestAtOrBefore(s, t, now)
	return out
}

// latestAtOrBefore returns the latest start time of s in [from, now],
// given that from is one; it widens a window back from now until the
// window holds a start time, then walks forward, so a long gap costs a
// few dozen steps, not one per missed slot.
func latestAtOrBefore(s cron.Schedule, from, now time.Time) time.Time {
	for back := time.Minute; ; back *= 2 {
		start := now.Add(-back)
		if !start.After(from) {
			start = from.Add(-time.Second)
		}
		t := s.Next(start)
		if t.IsZero() || t.After(now) {
			if !start.After(from) {
				return from
			}
			continue
		}
		for {
			n := s.Next(t)
			if n.IsZero() || n.After(now) {
				return t
			}
			t = n
		}
	}
}
