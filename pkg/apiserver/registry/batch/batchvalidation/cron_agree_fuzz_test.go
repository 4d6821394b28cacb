package batchvalidation

import (
	"fmt"
	"testing"
	"time"

	"github.com/robfig/cron/v3"
)

// FuzzScheduleAgreesWithController checks this parser against the one the
// CronJob controller runs schedules with (robfig/cron, as upstream's
// controller): every schedule the API accepts must parse there without a
// panic, and both must name the same next run times.
func FuzzScheduleAgreesWithController(f *testing.F) {
	for _, s := range []string{
		"* * * * *", "*/7 3-9 1,15 * MON-FRI", "0 0 29 2 *", "@weekly", "@every 90m", "TZ=UTC 0 0 * * *",
		"CRON_TZ=Europe/Paris 30 2 * * SUN", "0 0 31 * 1", "5/15 * * JAN-MAR *", "0 12 * * 7", "@every 0s",
	} {
		f.Add(s)
	}
	from := time.Date(2024, 2, 28, 23, 59, 30, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		ours, err := ParseSchedule(s)
		if err != nil {
			return
		}
		theirs, err := parseLikeController(s)
		if err != nil {
			t.Fatalf("%q is accepted by the API but not by the controller: %v", s, err)
		}
		at := from
		for i := 0; i < 3; i++ {
			a, b := ours.Next(at), theirs.Next(at)
			if !a.Equal(b) {
				t.Fatalf("%q: next run after %s is %s here, %s in the controller", s, at, a, b)
			}
			if a.IsZero() {
				return
			}
			at = a
		}
	})
}

// parseLikeController parses s as the controller does, turning a panic of
// the library into an error the test reports.
func parseLikeController(s string) (sched cron.Schedule, err error) {
	defer func() {
		if p := recover(); p != nil {
			sched, err = nil, panicError{p}
		}
	}()
	return cron.ParseStandard(s)
}

type panicError struct{ v any }

func (e panicError) Error() string { return fmt.Sprint("panic: ", e.v) }
