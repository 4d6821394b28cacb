package batchvalidation

import (
	"testing"
	"time"
)

// FuzzParseSchedule checks that parsing never panics and that every parsed
// schedule fires strictly later than asked, on a minute that matches it.
func FuzzParseSchedule(f *testing.F) {
	for _, s := range []string{"* * * * *", "*/7 3-9 1,15 * MON-FRI", "@weekly", "@every 2h", "TZ=UTC 0 0 29 2 *"} {
		f.Add(s)
	}
	from := time.Date(2024, 2, 28, 23, 59, 30, 500, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		sched, err := ParseSchedule(s)
		if err != nil {
			return
		}
		next := sched.Next(from)
		if next.IsZero() {
			return
		}
		if !next.After(from) {
			t.Fatalf("%q: Next(%s) = %s, not after", s, from, next)
		}
		c, ok := sched.(*cronSchedule)
		if !ok {
			return
		}
		local := next
		if c.loc != nil {
			local = next.In(c.loc)
		}
		if local.Second() != 0 || local.Nanosecond() != 0 || !c.month.has(int(local.Month())) ||
			!c.dayMatches(local) || !c.hour.has(local.Hour()) || !c.minute.has(local.Minute()) {
			t.Fatalf("%q: Next(%s) = %s does not match the schedule", s, from, next)
		}
		if again := sched.Next(next.Add(-time.Second)); !again.Equal(next) {
			t.Fatalf("%q: Next(%s) = %s, want %s", s, next.Add(-time.Second), again, next)
		}
	})
}
