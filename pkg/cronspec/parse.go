package cronspec

import (
	"fmt"

	"github.com/robfig/cron/v3"
)

// Parse parses a standard five-field cron expression (minute, hour, day of
// month, month, day of week, with lists, ranges, steps and names), a
// descriptor (@yearly, @annually, @monthly, @weekly, @daily, @midnight,
// @hourly, "@every <duration>"), optionally prefixed with TZ=<zone> or
// CRON_TZ=<zone>. A schedule that never fires (0 0 30 2 *) parses; its
// Next is the zero time.
func Parse(expr string) (s cron.Schedule, err error) {
	defer func() {
		// The library indexes past the end of "TZ=<zone>" with no
		// schedule after it (found by fuzzing).
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("unparseable schedule %q: %v", expr, p)
		}
	}()
	return cron.ParseStandard(expr)
}
