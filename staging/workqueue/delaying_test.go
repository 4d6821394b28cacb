package workqueue

import (
	"testing"
	"time"
)

type delayedAdd struct {
	item string
	d    time.Duration
}

func TestAddAfterOrdering(t *testing.T) {
	tests := []struct {
		name string
		adds []delayedAdd
		step time.Duration
		want []string // released after step, in order
	}{
		{"earliest first", []delayedAdd{{"a", 3 * time.Second}, {"b", time.Second}, {"c", 2 * time.Second}}, 3 * time.Second, []string{"b", "c", "a"}},
		{"only due items", []delayedAdd{{"a", 3 * time.Second}, {"b", time.Second}, {"c", 2 * time.Second}}, time.Second, []string{"b"}},
		{"earlier duplicate wins", []delayedAdd{{"a", 5 * time.Second}, {"b", 2 * time.Second}, {"a", time.Second}}, time.Second, []string{"a"}},
		{"later duplicate ignored", []delayedAdd{{"a", time.Second}, {"a", 5 * time.Second}}, time.Second, []string{"a"}},
		{"equal times keep add order", []delayedAdd{{"a", time.Second}, {"b", time.Second}, {"c", time.Second}}, time.Second, []string{"a", "b", "c"}},
		{"zero delay is immediate", []delayedAdd{{"a", 0}, {"b", time.Second}}, 0, []string{"a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := newFakeClock()
			q := NewQueue(Options[string]{Clock: clock})
			defer q.ShutDown()
			for _, a := range tc.adds {
				q.AddAfter(a.item, a.d)
			}
			clock.Step(tc.step)
			for _, want := range tc.want {
				if got, _ := mustGet(t, q); got != want {
					t.Fatalf("Get() = %q, want %q", got, want)
				}
			}
			// Items that are not yet due must not have been queued.
			if n := q.Len(); n != 0 {
				t.Fatalf("Len() = %d after releasing due items, want 0", n)
			}
		})
	}
}

func TestAddAfterReleasesLaterItemsOnLaterSteps(t *testing.T) {
	clock := newFakeClock()
	q := NewQueue(Options[string]{Clock: clock})
	defer q.ShutDown()
	q.AddAfter("a", time.Second)
	q.AddAfter("b", 2*time.Second)
	for _, want := range []string{"a", "b"} {
		clock.Step(time.Second)
		if got, _ := mustGet(t, q); got != want {
			t.Fatalf("Get() = %q, want %q", got, want)
		}
	}
}

func TestAddAfterIgnoredAfterShutDown(t *testing.T) {
	clock := newFakeClock()
	q := NewQueue(Options[string]{Clock: clock})
	q.AddAfter("a", time.Second)
	q.ShutDown()
	q.AddAfter("b", 0)
	clock.Step(time.Hour)
	if got, shutdown := mustGet(t, q); !shutdown {
		t.Fatalf("Get() = %q; want shutdown, pending delayed items dropped", got)
	}
}

func TestAddRateLimitedUsesLimiterDelay(t *testing.T) {
	clock := newFakeClock()
	limiter, err := NewExponentialRateLimiter[string](ExponentialOptions{Base: time.Second, Max: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	q := NewQueue(Options[string]{Clock: clock, RateLimiter: limiter})
	defer q.ShutDown()
	q.AddRateLimited("a") // first failure: 1s
	clock.Step(time.Second)
	if got, _ := mustGet(t, q); got != "a" {
		t.Fatalf("Get() = %q, want a", got)
	}
	q.Done("a")
	q.AddRateLimited("a")                       // second failure: 2s
	q.AddAfter("marker", 1500*time.Millisecond) // due 0.5s before "a"
	clock.Step(2 * time.Second)
	for _, want := range []string{"marker", "a"} {
		if got, _ := mustGet(t, q); got != want {
			t.Fatalf("Get() = %q, want %q", got, want)
		}
	}
	if n := q.NumRequeues("a"); n != 2 {
		t.Fatalf("NumRequeues = %d, want 2", n)
	}
	q.Forget("a")
	if n := q.NumRequeues("a"); n != 0 {
		t.Fatalf("NumRequeues after Forget = %d, want 0", n)
	}
}
