package cronjob

import (
	"testing"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
)

// FuzzParseSchedule parses arbitrary schedules and time zones as the
// controller does for every CronJob it syncs: that must never panic (a
// panic here would stop the controller manager), and a schedule that parses
// must name a next run after the time asked, or none.
func FuzzParseSchedule(f *testing.F) {
	for _, seed := range []struct{ schedule, tz string }{
		{"*/5 * * * *", ""}, {"0 0 * * *", "Europe/Berlin"}, {"@hourly", ""}, {"@every 1h30m", "UTC"},
		{"TZ=UTC 0 * * * *", ""}, {"CRON_TZ=Asia/Tokyo 0 9 * * MON-FRI", ""}, {"TZ=UTC", ""}, {"0 0 31 2 *", ""},
	} {
		f.Add(seed.schedule, seed.tz)
	}
	from := time.Date(2024, 2, 28, 23, 59, 30, 0, time.UTC)
	f.Fuzz(func(t *testing.T, schedule, tz string) {
		spec := &batchv1.CronJobSpec{Schedule: schedule}
		if tz != "" {
			spec.TimeZone = &tz
		}
		sched, loc, err := parseSchedule(spec)
		if err != nil {
			return
		}
		if loc == nil {
			t.Fatalf("%q in %q: no location", schedule, tz)
		}
		if next := sched.Next(from); !next.IsZero() && !next.After(from) {
			t.Fatalf("%q in %q: next run %s is not after %s", schedule, tz, next, from)
		}
	})
}
