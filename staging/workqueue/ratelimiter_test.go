package workqueue

import (
	"errors"
	"testing"
	"time"
)

func TestExponentialBackoff(t *testing.T) {
	l, err := NewExponentialRateLimiter[string](ExponentialOptions{Base: time.Millisecond, Max: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000, 1000}
	for i, w := range want {
		if got := l.When("a"); got != w*time.Millisecond {
			t.Fatalf("When #%d = %v, want %v", i, got, w*time.Millisecond)
		}
	}
	if got := l.When("b"); got != time.Millisecond {
		t.Fatalf("other item When = %v, want independent 1ms", got)
	}
	if n := l.NumRequeues("a"); n != len(want) {
		t.Fatalf("NumRequeues = %d, want %d", n, len(want))
	}
	l.Forget("a")
	if n := l.NumRequeues("a"); n != 0 {
		t.Fatalf("NumRequeues after Forget = %d, want 0", n)
	}
	if got := l.When("a"); got != time.Millisecond {
		t.Fatalf("When after Forget = %v, want 1ms", got)
	}
}

func TestExponentialBackoffNoOverflow(t *testing.T) {
	l, err := NewExponentialRateLimiter[int](ExponentialOptions{Base: time.Second, Max: 1000 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		if d := l.When(1); d <= 0 || d > 1000*time.Hour {
			t.Fatalf("When #%d = %v, out of range", i, d)
		}
	}
}

func TestTokenBucket(t *testing.T) {
	clock := newFakeClock()
	l, err := NewBucketRateLimiter[string](BucketOptions{QPS: 10, Burst: 3, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	steps := []struct {
		advance time.Duration
		want    time.Duration
	}{
		{0, 0}, {0, 0}, {0, 0}, // burst
		{0, 100 * ms}, {0, 200 * ms}, // paced at 10 qps
		{200 * ms, 100 * ms},           // debt repaid by refill, one more in flight
		{time.Hour, 0}, {0, 0}, {0, 0}, // refilled only up to burst
		{0, 100 * ms},
	}
	for i, s := range steps {
		clock.Step(s.advance)
		if got := l.When("any"); got != s.want {
			t.Fatalf("step %d: When = %v, want %v", i, got, s.want)
		}
	}
	l.Forget("any")
	if n := l.NumRequeues("any"); n != 0 {
		t.Fatalf("NumRequeues = %d, want 0", n)
	}
}

func TestMaxOf(t *testing.T) {
	clock := newFakeClock()
	exp, err := NewExponentialRateLimiter[string](ExponentialOptions{Base: 10 * time.Millisecond, Max: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	bucket, err := NewBucketRateLimiter[string](BucketOptions{QPS: 1, Burst: 2, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	l := MaxOf(exp, bucket)
	// exponential: 10ms 20ms 40ms 80ms; bucket: 0 0 1s 2s
	want := []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, time.Second, 2 * time.Second}
	for i, w := range want {
		if got := l.When("a"); got != w {
			t.Fatalf("When #%d = %v, want %v", i, got, w)
		}
	}
	if n := l.NumRequeues("a"); n != 4 {
		t.Fatalf("NumRequeues = %d, want 4", n)
	}
	l.Forget("a")
	if n := l.NumRequeues("a"); n != 0 {
		t.Fatalf("NumRequeues after Forget = %d, want 0", n)
	}
}

func TestDefaultControllerRateLimiter(t *testing.T) {
	l := defaultControllerRateLimiter[int](newFakeClock())
	for i := 0; i < 100; i++ { // within burst: exponential dominates per item
		if got := l.When(i); got != 5*time.Millisecond {
			t.Fatalf("When(%d) = %v, want 5ms", i, got)
		}
	}
	if got := l.When(1000); got != 100*time.Millisecond {
		t.Fatalf("first call beyond burst = %v, want 100ms (10 qps)", got)
	}
	if DefaultControllerRateLimiter[string]() == nil {
		t.Fatal("DefaultControllerRateLimiter returned nil")
	}
}

func TestLimiterOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		make func() error
	}{
		{"zero base", func() error {
			_, err := NewExponentialRateLimiter[int](ExponentialOptions{Max: time.Second})
			return err
		}},
		{"max below base", func() error {
			_, err := NewExponentialRateLimiter[int](ExponentialOptions{Base: time.Second, Max: time.Millisecond})
			return err
		}},
		{"zero qps", func() error { _, err := NewBucketRateLimiter[int](BucketOptions{Burst: 1}); return err }},
		{"zero burst", func() error { _, err := NewBucketRateLimiter[int](BucketOptions{QPS: 1}); return err }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.make(); !errors.Is(err, ErrInvalidOptions) {
				t.Fatalf("err = %v, want ErrInvalidOptions", err)
			}
		})
	}
}
