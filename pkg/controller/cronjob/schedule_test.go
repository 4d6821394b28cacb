package cronjob

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	batchv1 "platform.io/client/api/batch/v1"
)

var t0 = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC) // a Wednesday

func TestParseSchedule(t *testing.T) {
	ny := "America/New_York"
	bad := "Mars/Olympus"
	cases := []struct {
		name     string
		spec     batchv1.CronJobSpec
		from     time.Time
		wantNext time.Time
		wantErr  bool
	}{
		{name: "five fields", spec: batchv1.CronJobSpec{Schedule: "*/15 * * * *"}, from: t0.Add(time.Minute), wantNext: t0.Add(15 * time.Minute)},
		{name: "hourly", spec: batchv1.CronJobSpec{Schedule: "@hourly"}, from: t0, wantNext: t0.Add(time.Hour)},
		{name: "daily", spec: batchv1.CronJobSpec{Schedule: "@daily"}, from: t0, wantNext: time.Date(2024, 5, 2, 0, 0, 0, 0, time.UTC)},
		{name: "weekly", spec: batchv1.CronJobSpec{Schedule: "@weekly"}, from: t0, wantNext: time.Date(2024, 5, 5, 0, 0, 0, 0, time.UTC)},
		{name: "monthly", spec: batchv1.CronJobSpec{Schedule: "@monthly"}, from: t0, wantNext: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)},
		{name: "yearly", spec: batchv1.CronJobSpec{Schedule: "@yearly"}, from: t0, wantNext: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		{name: "every", spec: batchv1.CronJobSpec{Schedule: "@every 90s"}, from: t0, wantNext: t0.Add(90 * time.Second)},
		{name: "time zone field", spec: batchv1.CronJobSpec{Schedule: "0 9 * * *", TimeZone: &ny}, from: t0, wantNext: time.Date(2024, 5, 1, 13, 0, 0, 0, time.UTC)},
		{name: "CRON_TZ prefix", spec: batchv1.CronJobSpec{Schedule: "CRON_TZ=America/New_York 0 9 * * *"}, from: t0, wantNext: time.Date(2024, 5, 1, 13, 0, 0, 0, time.UTC)},
		{name: "unknown zone", spec: batchv1.CronJobSpec{Schedule: "0 9 * * *", TimeZone: &bad}, wantErr: true},
		{name: "six fields rejected", spec: batchv1.CronJobSpec{Schedule: "0 0 9 * * *"}, wantErr: true},
		{name: "garbage", spec: batchv1.CronJobSpec{Schedule: "every day"}, wantErr: true},
		// The library panics on a zone prefix with nothing after it (FuzzParseSchedule).
		{name: "zone prefix alone", spec: batchv1.CronJobSpec{Schedule: "TZ=UTC"}, wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _, err := parseSchedule(&tc.spec)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if err == nil && !s.Next(tc.from).Equal(tc.wantNext) {
				t.Errorf("next after %v = %v, want %v", tc.from, s.Next(tc.from), tc.wantNext)
			}
		})
	}
}

func TestCompute(t *testing.T) {
	everyMinute, _, _ := parseSchedule(&batchv1.CronJobSpec{Schedule: "* * * * *"})
	hourly, _, _ := parseSchedule(&batchv1.CronJobSpec{Schedule: "0 * * * *"})
	d := func(s int64) *int64 { return &s }
	cases := []struct {
		name     string
		sched    string
		last     time.Time
		deadline *int64
		now      time.Time
		want     slots
	}{
		{name: "nothing due yet", sched: "hourly", last: t0, now: t0.Add(59 * time.Minute),
			want: slots{next: t0.Add(time.Hour)}},
		{name: "one due", sched: "hourly", last: t0, now: t0.Add(time.Hour + time.Second),
			want: slots{due: t0.Add(time.Hour), missed: 1, next: t0.Add(2 * time.Hour)}},
		{name: "several missed, latest due", sched: "hourly", last: t0, now: t0.Add(3*time.Hour + 5*time.Minute),
			want: slots{due: t0.Add(3 * time.Hour), missed: 3, next: t0.Add(4 * time.Hour)}},
		{name: "deadline skips older slots", sched: "hourly", last: t0, deadline: d(600), now: t0.Add(3*time.Hour + 5*time.Minute),
			want: slots{due: t0.Add(3 * time.Hour), missed: 1, skipped: 2, lastSkipped: t0.Add(2 * time.Hour), next: t0.Add(4 * time.Hour)}},
		{name: "deadline passed for the latest slot", sched: "hourly", last: t0, deadline: d(60), now: t0.Add(time.Hour + 5*time.Minute),
			want: slots{skipped: 1, lastSkipped: t0.Add(time.Hour), next: t0.Add(2 * time.Hour)}},
		{name: "too many missed", sched: "minute", last: t0, now: t0.Add(3 * time.Hour),
			want: slots{due: t0.Add(3 * time.Hour), missed: tooManyMissed + 1, next: t0.Add(3*time.Hour + time.Minute)}},
		{name: "a deadline keeps the count low", sched: "minute", last: t0, deadline: d(200), now: t0.Add(3*time.Hour + 30*time.Second),
			want: slots{due: t0.Add(3 * time.Hour), missed: 3, skipped: tooManyMissed + 1, lastSkipped: t0.Add(3*time.Hour - 3*time.Minute),
				next: t0.Add(3*time.Hour + time.Minute)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := hourly
			if tc.sched == "minute" {
				s = everyMinute
			}
			got := compute(s, tc.last, tc.deadline, tc.now)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(slots{})); diff != "" {
				t.Errorf("slots (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLatestAtOrBefore(t *testing.T) {
	yearly, _, _ := parseSchedule(&batchv1.CronJobSpec{Schedule: "@yearly"})
	minute, _, _ := parseSchedule(&batchv1.CronJobSpec{Schedule: "* * * * *"})
	y2000 := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if got, want := latestAtOrBefore(yearly, y2000, t0), time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("yearly: %v, want %v", got, want)
	}
	if got, want := latestAtOrBefore(minute, y2000, t0.Add(30*time.Second)), t0; !got.Equal(want) {
		t.Errorf("minutely: %v, want %v", got, want)
	}
}

func TestJobName(t *testing.T) {
	if got := JobName("hello", time.Unix(27_000_000*60, 0)); got != "hello-27000000" {
		t.Errorf("JobName = %q", got)
	}
}
