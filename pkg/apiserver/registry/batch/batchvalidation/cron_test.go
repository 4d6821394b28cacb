package batchvalidation

import (
	"strings"
	"testing"
	"time"
)

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestParseScheduleValid(t *testing.T) {
	for _, s := range []string{
		"* * * * *",
		"? ? ? ? ?",
		"*/5 * * * *",
		"0 0 1-31/5 * *",
		"0 0 * * SUN-SAT",
		"0 0 * * mon,wed,FRI",
		"59 23 31 DEC *",
		"0 0 1 jan-Mar/2 *",
		"0,15,30,45 8-18 * * 1-5",
		"5/10 * * * *",
		"  0   0  *  *  *  ",
		"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly",
		"@every 5m",
		"@every 1h30m",
		"TZ=UTC 0 * * * *",
		"CRON_TZ=Europe/Berlin 0 * * * *",
		"TZ=Asia/Tokyo @daily",
	} {
		if _, err := ParseSchedule(s); err != nil {
			t.Errorf("ParseSchedule(%q) = %v, want success", s, err)
		}
	}
}

func TestParseScheduleInvalid(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "empty"},
		{"* * * *", "expected exactly 5 fields, found 4"},
		{"* * * * * *", "expected exactly 5 fields, found 6"},
		{"60 * * * *", "above the maximum 59"},
		{"* 24 * * *", "above the maximum 23"},
		{"* * 0 * *", "below the minimum 1"},
		{"* * 32 * *", "above the maximum 31"},
		{"* * * 13 *", "above the maximum 12"},
		{"* * * 0 *", "below the minimum 1"},
		{"* * * * 7", "above the maximum 6"},
		{"*/0 * * * *", "must be a positive integer"},
		{"*/ * * * *", "must be a positive integer"},
		{"5-1 * * * *", "beyond its end"},
		{"1-2-3 * * * *", "too many hyphens"},
		{"1/2/3 * * * *", "too many slashes"},
		{"a * * * *", "not a valid minute value"},
		{"JAN * * * *", "not a valid minute value"},
		{"* * * FOO *", "not a valid month value"},
		{"* * * * MONDAY", "not a valid day of week value"},
		{",1 * * * *", "not a valid minute value"},
		{"-1 * * * *", "not a valid minute value"},
		{"*-5 * * * *", "not a valid minute value"},
		{"+5 * * * *", "not a valid minute value"},
		{"@reboot", "unrecognized macro"},
		{"@Daily", "unrecognized macro"},
		{"@every", "unrecognized macro"},
		{"@every foo", "invalid duration"},
		{"@every 1h ", "invalid duration"}, // the controller could never run it
		{"TZ=Nowhere/City 0 * * * *", "unknown time zone"},
		{"TZ=UTC", "must be followed by a schedule"},
	} {
		_, err := ParseSchedule(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSchedule(%q) error = %v, want one containing %q", tc.in, err, tc.want)
		}
	}
}

func TestNext(t *testing.T) {
	for _, tc := range []struct{ schedule, from, want string }{
		{"*/15 * * * *", "2024-01-01T10:07:30Z", "2024-01-01T10:15:00Z"},
		{"* * * * *", "2024-01-01T10:07:00Z", "2024-01-01T10:08:00Z"},
		{"0 0 1 1 *", "2024-12-31T23:59:59Z", "2025-01-01T00:00:00Z"},
		{"59 23 31 12 *", "2024-12-31T23:59:00Z", "2025-12-31T23:59:00Z"},
		{"@yearly", "2024-06-15T08:00:00Z", "2025-01-01T00:00:00Z"},
		{"@monthly", "2024-01-31T12:00:00Z", "2024-02-01T00:00:00Z"},
		{"0 8 1 * *", "2024-01-31T09:00:00Z", "2024-02-01T08:00:00Z"},
		{"0 0 31 * *", "2024-04-15T00:00:00Z", "2024-05-31T00:00:00Z"},
		{"@daily", "2024-02-28T05:00:00Z", "2024-02-29T00:00:00Z"},
		{"@daily", "2023-02-28T05:00:00Z", "2023-03-01T00:00:00Z"},
		{"0 12 29 2 *", "2024-03-01T00:00:00Z", "2028-02-29T12:00:00Z"},
		{"30 9 * * MON-FRI", "2024-03-08T10:00:00Z", "2024-03-11T09:30:00Z"},
		{"0 0 * * MON", "2024-12-31T00:00:00Z", "2025-01-06T00:00:00Z"},
		{"@weekly", "2024-01-01T00:00:00Z", "2024-01-07T00:00:00Z"},
		// Both day fields restricted: either may match.
		{"0 0 1 * MON", "2024-01-02T00:00:00Z", "2024-01-08T00:00:00Z"},
		{"0 0 29 2 1", "2024-02-27T00:00:00Z", "2024-02-29T00:00:00Z"},
		// A step restricts a star, so the day fields are ORed again.
		{"0 0 */10 * SUN", "2024-01-02T00:00:00Z", "2024-01-07T00:00:00Z"},
		{"@hourly", "2024-01-01T10:59:59Z", "2024-01-01T11:00:00Z"},
		{"0 0 1 JAN,jul *", "2024-02-01T00:00:00Z", "2024-07-01T00:00:00Z"},
		{"5-10/2 * * * *", "2024-01-01T10:06:00Z", "2024-01-01T10:07:00Z"},
		{"5-10/2 * * * *", "2024-01-01T10:09:00Z", "2024-01-01T11:05:00Z"},
		{"0 22/3 * * *", "2024-01-01T23:00:00Z", "2024-01-02T22:00:00Z"},
		{"@every 90s", "2024-01-01T10:00:00.5Z", "2024-01-01T10:01:30Z"},
		{"@every 1h30m", "2024-01-01T23:00:00Z", "2024-01-02T00:30:00Z"},
		{"@every 100ms", "2024-01-01T00:00:00Z", "2024-01-01T00:00:01Z"},
		{"TZ=America/New_York 0 9 * * *", "2024-01-01T00:00:00Z", "2024-01-01T14:00:00Z"},
		{"CRON_TZ=Asia/Tokyo 0 0 1 * *", "2024-01-31T16:00:00Z", "2024-02-29T15:00:00Z"},
		// Never fires.
		{"0 0 30 2 *", "2024-01-01T00:00:00Z", ""},
		{"0 0 31 4,6,9,11 *", "2024-01-01T00:00:00Z", ""},
	} {
		s, err := ParseSchedule(tc.schedule)
		if err != nil {
			t.Fatalf("ParseSchedule(%q): %v", tc.schedule, err)
		}
		got := s.Next(mustTime(t, tc.from))
		var want time.Time
		if tc.want != "" {
			want = mustTime(t, tc.want)
		}
		if !got.Equal(want) {
			t.Errorf("%q.Next(%s) = %s, want %s", tc.schedule, tc.from, got, want)
		}
		if !got.IsZero() && got.Location() != time.UTC {
			t.Errorf("%q.Next returned location %s, want that of the input", tc.schedule, got.Location())
		}
	}
}

func TestNextAcrossDST(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct {
		schedule string
		from     time.Time
		want     time.Time
	}{
		// 02:30 does not exist on 2024-03-10; the next one is a day later.
		{"30 2 * * *", time.Date(2024, 3, 10, 0, 0, 0, 0, ny), time.Date(2024, 3, 11, 2, 30, 0, 0, ny)},
		{"0 3 * * *", time.Date(2024, 3, 10, 0, 0, 0, 0, ny), time.Date(2024, 3, 10, 3, 0, 0, 0, ny)},
		{"0 * * * *", time.Date(2024, 11, 3, 1, 0, 0, 0, ny).Add(time.Hour), time.Date(2024, 11, 3, 2, 0, 0, 0, ny)},
	} {
		s, err := ParseSchedule(tc.schedule)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Next(tc.from); !got.Equal(tc.want) {
			t.Errorf("%q.Next(%s) = %s, want %s", tc.schedule, tc.from, got, tc.want)
		}
	}
}
