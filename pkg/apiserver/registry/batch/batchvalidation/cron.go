package batchvalidation

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	// Zone names must resolve even on hosts without a zoneinfo database.
	_ "time/tzdata"
)

// Schedule tells when a parsed cron schedule fires next.
type Schedule interface {
	// Next returns the first activation strictly after t, in t's location,
	// or the zero time when there is none within five years (e.g. "0 0 30 2 *").
	Next(t time.Time) time.Time
}

// bits is a set of small integers: bit i set means value i is allowed.
type bits uint64

func (b bits) has(v int) bool { return b&(1<<uint(v)) != 0 }

// cronField describes one of the five positions of a cron expression.
type cronField struct {
	name     string
	min, max int
	names    map[string]int
}

var (
	minuteField = cronField{name: "minute", min: 0, max: 59}
	hourField   = cronField{name: "hour", min: 0, max: 23}
	domField    = cronField{name: "day of month", min: 1, max: 31}
	monthField  = cronField{name: "month", min: 1, max: 12, names: map[string]int{
		"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
		"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
	}}
	dowField = cronField{name: "day of week", min: 0, max: 6, names: map[string]int{
		"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6,
	}}
	cronFields = [5]*cronField{&minuteField, &hourField, &domField, &monthField, &dowField}
)

// macros are the @-shorthands and the five-field expressions they stand for.
var macros = map[string]string{
	"@yearly":   "0 0 1 1 *",
	"@annually": "0 0 1 1 *",
	"@monthly":  "0 0 1 * *",
	"@weekly":   "0 0 * * 0",
	"@daily":    "0 0 * * *",
	"@midnight": "0 0 * * *",
	"@hourly":   "0 * * * *",
}

const everyPrefix = "@every "

// ParseSchedule parses a standard five-field cron expression (minute, hour,
// day of month, month, day of week) with lists, ranges, steps and month and
// weekday names, one of the @yearly/@annually/@monthly/@weekly/@daily/
// @midnight/@hourly macros, or "@every <duration>". A leading "TZ=<zone>" or
// "CRON_TZ=<zone>" evaluates the schedule in that zone.
func ParseSchedule(s string) (Schedule, error) {
	if s == "" {
		return nil, errors.New("empty schedule")
	}
	var loc *time.Location
	if strings.HasPrefix(s, "TZ=") || strings.HasPrefix(s, "CRON_TZ=") {
		zone, rest, ok := strings.Cut(s[strings.Index(s, "=")+1:], " ")
		if !ok {
			return nil, errors.New("a time zone prefix must be followed by a schedule")
		}
		l, err := time.LoadLocation(zone)
		if err != nil {
			return nil, fmt.Errorf("unknown time zone %q: %v", zone, err)
		}
		loc, s = l, strings.TrimSpace(rest)
	}
	if strings.HasPrefix(s, everyPrefix) {
		// No trimming: the controller's parser (robfig/cron, as upstream's)
		// refuses "@every 1h " and would never run it.
		d, err := time.ParseDuration(s[len(everyPrefix):])
		if err != nil {
			return nil, fmt.Errorf("invalid duration in %q: %v", s, err)
		}
		return newEvery(d), nil
	}
	if strings.HasPrefix(s, "@") {
		expr, ok := macros[s]
		if !ok {
			return nil, fmt.Errorf("unrecognized macro %q", s)
		}
		s = expr
	}
	return parseFields(s, loc)
}

func parseFields(s string, loc *time.Location) (*cronSchedule, error) {
	parts := strings.Fields(s)
	if len(parts) != len(cronFields) {
		return nil, fmt.Errorf("expected exactly 5 fields, found %d: %q", len(parts), s)
	}
	var values [5]bits
	var star [5]bool
	for i, f := range cronFields {
		b, st, err := f.parse(parts[i])
		if err != nil {
			return nil, fmt.Errorf("%s field %q: %v", f.name, parts[i], err)
		}
		values[i], star[i] = b, st
	}
	return &cronSchedule{
		minute: values[0], hour: values[1], dom: values[2], month: values[3], dow: values[4],
		domStar: star[2], dowStar: star[4], loc: loc,
	}, nil
}

// parse reads a comma-separated list of items. star reports whether an item
// was an unrestricted "*" or "?" (a step above 1 restricts it).
func (f *cronField) parse(list string) (b bits, star bool, err error) {
	for _, item := range strings.Split(list, ",") {
		ib, st, err := f.parseItem(item)
		if err != nil {
			return 0, false, err
		}
		b |= ib
		star = star || st
	}
	return b, star, nil
}

// parseItem reads "*", "?", "v", "a-b", each optionally followed by "/step".
func (f *cronField) parseItem(item string) (bits, bool, error) {
	rng, stepText, hasStep := strings.Cut(item, "/")
	if strings.Contains(stepText, "/") {
		return 0, false, errors.New("too many slashes")
	}
	star := rng == "*" || rng == "?"
	start, end := f.min, f.max
	if !star {
		lo, hi, isRange := strings.Cut(rng, "-")
		if strings.Contains(hi, "-") {
			return 0, false, errors.New("too many hyphens")
		}
		var err error
		if start, err = f.value(lo); err != nil {
			return 0, false, err
		}
		end = start
		if isRange {
			if end, err = f.value(hi); err != nil {
				return 0, false, err
			}
		} else if hasStep {
			end = f.max // "a/n" means "a-max/n"
		}
	}
	step := 1
	if hasStep {
		n, err := strconv.Atoi(stepText)
		if err != nil || n <= 0 {
			return 0, false, fmt.Errorf("step %q must be a positive integer", stepText)
		}
		step = n
		star = star && step == 1
	}
	if err := f.checkRange(start, end); err != nil {
		return 0, false, err
	}
	var b bits
	for v := start; ; v += step {
		b |= 1 << uint(v)
		if end-v < step {
			break
		}
	}
	return b, star, nil
}

func (f *cronField) checkRange(start, end int) error {
	switch {
	case start < f.min:
		return fmt.Errorf("%d is below the minimum %d", start, f.min)
	case end > f.max:
		return fmt.Errorf("%d is above the maximum %d", end, f.max)
	case start > end:
		return fmt.Errorf("range start %d is beyond its end %d", start, end)
	}
	return nil
}

// value reads a number or, where the field has them, a name (any case).
func (f *cronField) value(s string) (int, error) {
	if v, ok := f.names[strings.ToLower(s)]; ok {
		return v, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || strings.HasPrefix(s, "+") {
		return 0, fmt.Errorf("%q is not a valid %s value", s, f.name)
	}
	return n, nil
}

// cronSchedule is a parsed five-field expression.
type cronSchedule struct {
	minute, hour, dom, month, dow bits
	// domStar and dowStar record unrestricted day fields: when both day
	// fields are restricted a day matches if either matches, as in cron.
	domStar, dowStar bool
	// loc, when set, is the zone the schedule is evaluated in.
	loc *time.Location
}

// searchYears bounds the search for the next activation.
const searchYears = 5

// Next implements Schedule.
func (c *cronSchedule) Next(t time.Time) time.Time {
	orig := t.Location()
	if c.loc != nil {
		t = t.In(c.loc)
	}
	loc := t.Location()
	// Start at the next whole minute, computed on the absolute time so that a
	// repeated wall-clock hour does not move us backwards.
	t = t.Add(-time.Duration(t.Second())*time.Second - time.Duration(t.Nanosecond())).Add(time.Minute)
	limit := t.AddDate(searchYears, 0, 0)
	for t.Before(limit) {
		var n time.Time
		switch {
		case !c.month.has(int(t.Month())):
			n = time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, loc)
		case !c.dayMatches(t):
			n = time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, loc)
		case !c.hour.has(t.Hour()):
			n = t.Add(-time.Duration(t.Minute()) * time.Minute).Add(time.Hour)
		case !c.minute.has(t.Minute()):
			n = t.Add(time.Minute)
		default:
			return t.In(orig)
		}
		if !n.After(t) {
			// A wall-clock midnight that a DST jump skips can resolve to an
			// earlier instant; creep forward instead.
			n = t.Add(time.Minute)
		}
		t = n
	}
	return time.Time{}
}

func (c *cronSchedule) dayMatches(t time.Time) bool {
	dom, dow := c.dom.has(t.Day()), c.dow.has(int(t.Weekday()))
	if c.domStar || c.dowStar {
		return dom && dow
	}
	return dom || dow
}

// everySchedule fires at a fixed interval of whole seconds.
type everySchedule struct {
	delay time.Duration
}

func newEvery(d time.Duration) *everySchedule {
	if d < time.Second {
		d = time.Second
	}
	return &everySchedule{delay: d.Truncate(time.Second)}
}

// Next implements Schedule: t plus the interval, on a whole second.
func (e *everySchedule) Next(t time.Time) time.Time {
	return t.Add(e.delay - time.Duration(t.Nanosecond()))
}
