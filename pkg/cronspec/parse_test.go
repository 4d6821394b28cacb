package cronspec

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	from := time.Date(2024, 3, 8, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		expr string
		next string // RFC 3339; "" for a schedule that never fires
		err  bool
	}{
		{expr: "*/15 * * * *", next: "2024-03-08T10:15:00Z"},
		{expr: "30 9 * * MON-FRI", next: "2024-03-11T09:30:00Z"},
		{expr: "0 0 1 jan-Mar/2 *", next: "2025-01-01T00:00:00Z"},
		{expr: "@hourly", next: "2024-03-08T11:00:00Z"},
		{expr: "@every 90s", next: "2024-03-08T10:01:30Z"},
		{expr: "TZ=America/New_York 0 9 * * *", next: "2024-03-08T14:00:00Z"},
		{expr: "CRON_TZ=Asia/Tokyo 0 0 1 * *", next: "2024-03-31T15:00:00Z"},
		{expr: "0 0 30 2 *", next: ""},
		{expr: "", err: true},
		{expr: "* * * *", err: true},
		{expr: "* * * * * *", err: true},
		{expr: "60 * * * *", err: true},
		{expr: "* * 0 * *", err: true},
		{expr: "* * * * MONDAY", err: true},
		{expr: "@reboot", err: true},
		{expr: "@every 1h ", err: true},
		{expr: "TZ=Nowhere/City 0 * * * *", err: true},
		{expr: "TZ=UTC", err: true},   // the library panics on this one
		{expr: "CRON_TZ=", err: true}, // and this
		{expr: "TZ=UTC ", err: true},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			s, err := Parse(tc.expr)
			if (err != nil) != tc.err {
				t.Fatalf("Parse(%q) error = %v, want error %v", tc.expr, err, tc.err)
			}
			if err != nil {
				return
			}
			got := ""
			if n := s.Next(from); !n.IsZero() {
				got = n.UTC().Format(time.RFC3339)
			}
			if got != tc.next {
				t.Errorf("Next(%s) = %q, want %q", from.Format(time.RFC3339), got, tc.next)
			}
		})
	}
}
