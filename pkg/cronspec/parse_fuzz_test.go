package cronspec

import (
	"testing"
	"time"

	"github.com/robfig/cron/v3"
)

// FuzzParse checks that parsing never panics and that every parsed
// schedule fires strictly later than asked, on a whole second; a calendar
// schedule (not @every, which counts from the time asked) names the same
// time again when asked from just before it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"* * * * *", "*/7 3-9 1,15 * MON-FRI", "@weekly", "@every 2h", "TZ=UTC 0 0 29 2 *", "TZ=UTC"} {
		f.Add(s)
	}
	from := time.Date(2024, 2, 28, 23, 59, 30, 500, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		sched, err := Parse(s)
		if err != nil {
			return
		}
		next := sched.Next(from)
		if next.IsZero() {
			return
		}
		if !next.After(from) || next.Nanosecond() != 0 {
			t.Fatalf("%q: Next(%s) = %s", s, from, next)
		}
		if _, every := sched.(cron.ConstantDelaySchedule); every {
			return
		}
		if again := sched.Next(next.Add(-time.Second)); !again.Equal(next) {
			t.Fatalf("%q: Next(%s) = %s, want %s", s, next.Add(-time.Second), again, next)
		}
	})
}
