package leaderelection

import (
	"context"
	"strings"
	"testing"
	"time"
)

func validConfig() Config {
	return Config{
		Lock: &fakeLock{id: "a"},
		Callbacks: Callbacks{
			OnStartedLeading: func(context.Context) {},
			OnStoppedLeading: func() {},
		},
	}
}

func TestConfigValidation(t *testing.T) {
	cases := []struct {
		name    string
		mutate  func(*Config)
		wantErr string // "" for a valid config
	}{
		{"defaults", func(*Config) {}, ""},
		{"short durations", func(c *Config) {
			c.LeaseDuration, c.RenewDeadline, c.RetryPeriod = 1500*time.Millisecond, time.Second, 200*time.Millisecond
		}, ""},
		{"renew deadline just above jitter", func(c *Config) { c.RenewDeadline = 2401 * time.Millisecond }, ""},
		{"lease equal to renew deadline", func(c *Config) { c.LeaseDuration = DefaultRenewDeadline }, "lease duration"},
		{"lease below renew deadline", func(c *Config) { c.LeaseDuration = 5 * time.Second }, "lease duration"},
		{"renew deadline at jitter", func(c *Config) { c.RenewDeadline = 2400 * time.Millisecond }, "renew deadline"},
		{"renew deadline below retry", func(c *Config) { c.RenewDeadline = time.Second }, "renew deadline"},
		{"negative retry", func(c *Config) { c.RetryPeriod = -time.Second }, "positive"},
		{"negative lease", func(c *Config) { c.LeaseDuration = -time.Second }, "positive"},
		{"attempt timeout at renew deadline", func(c *Config) { c.AttemptTimeout = DefaultRenewDeadline }, ""},
		{"attempt timeout past renew deadline", func(c *Config) { c.AttemptTimeout = 11 * time.Second }, "attempt timeout"},
		{"negative attempt timeout", func(c *Config) { c.AttemptTimeout = -time.Second }, "positive"},
		{"no lock", func(c *Config) { c.Lock = nil }, "lock is required"},
		{"empty identity", func(c *Config) { c.Lock = &fakeLock{} }, "identity is empty"},
		{"no OnStartedLeading", func(c *Config) { c.Callbacks.OnStartedLeading = nil }, "OnStartedLeading"},
		{"no OnStoppedLeading", func(c *Config) { c.Callbacks.OnStoppedLeading = nil }, "OnStoppedLeading"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := validConfig()
			tc.mutate(&cfg)
			_, err := New(cfg)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("New: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("New: got %v, want an error mentioning %q", err, tc.wantErr)
			}
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	le, err := New(validConfig())
	if err != nil {
		t.Fatal(err)
	}
	c := le.cfg
	if c.LeaseDuration != 15*time.Second || c.RenewDeadline != 10*time.Second || c.RetryPeriod != 2*time.Second {
		t.Errorf("defaults: lease %v, renew %v, retry %v", c.LeaseDuration, c.RenewDeadline, c.RetryPeriod)
	}
	if c.AttemptTimeout != 10*time.Second/3 {
		t.Errorf("default attempt timeout %v, want a third of the renew deadline", c.AttemptTimeout)
	}
	if _, ok := c.Clock.(RealClock); !ok {
		t.Errorf("default clock is %T", c.Clock)
	}
}

func TestDefaultAttemptTimeout(t *testing.T) {
	for _, tc := range []struct {
		renew, retry, want time.Duration
	}{
		{10 * time.Second, 2 * time.Second, 10 * time.Second / 3},
		{2 * time.Second, 500 * time.Millisecond, 2 * time.Second / 3},
		// A retry period above a third of the deadline is the floor.
		{3 * time.Second, 2 * time.Second, 2 * time.Second},
	} {
		if got := DefaultAttemptTimeout(tc.renew, tc.retry); got != tc.want {
			t.Errorf("DefaultAttemptTimeout(%v, %v) = %v, want %v", tc.renew, tc.retry, got, tc.want)
		}
	}
}

func TestDurationSeconds(t *testing.T) {
	for _, tc := range []struct {
		in   time.Duration
		want int
	}{{15 * time.Second, 15}, {1500 * time.Millisecond, 2}, {time.Millisecond, 1}, {0, 1}} {
		if got := durationSeconds(tc.in); got != tc.want {
			t.Errorf("durationSeconds(%v) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
