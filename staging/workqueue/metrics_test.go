package workqueue

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

func TestMetrics(t *testing.T) {
	clock := newFakeClock()
	fm := newFakeMetrics()
	q := NewQueue(Options[string]{Name: "q", Clock: clock, MetricsProvider: fm, MetricsUpdatePeriod: time.Hour})
	defer q.ShutDown()

	q.Add("a")
	q.Add("a") // duplicate: not counted
	q.Add("b")
	check(t, fm, map[string]float64{"q/adds": 2, "q/depth": 2})

	clock.Step(2 * time.Second)
	mustGet(t, q) // a waited 2s
	check(t, fm, map[string]float64{"q/depth": 1})

	clock.Step(3 * time.Second)
	q.updateUnfinishedWork()
	check(t, fm, map[string]float64{"q/unfinished": 3, "q/longest": 3})

	mustGet(t, q) // b waited 5s
	clock.Step(time.Second)
	q.updateUnfinishedWork()
	check(t, fm, map[string]float64{"q/unfinished": 5, "q/longest": 4, "q/depth": 0})

	q.Done("a") // a worked 4s
	q.Done("b") // b worked 1s
	q.updateUnfinishedWork()
	check(t, fm, map[string]float64{"q/unfinished": 0, "q/longest": 0})

	q.AddAfter("c", time.Second)
	q.AddRateLimited("c")
	check(t, fm, map[string]float64{"q/retries": 2})

	checkObs(t, fm, "q/latency", []float64{2, 5})
	checkObs(t, fm, "q/work", []float64{4, 1})
}

func TestMetricsLoopPublishesPeriodically(t *testing.T) {
	clock := newFakeClock()
	fm := newFakeMetrics()
	q := NewQueue(Options[string]{Name: "q", Clock: clock, MetricsProvider: fm, MetricsUpdatePeriod: time.Second})
	defer q.ShutDown()
	q.Add("a")
	mustGet(t, q)
	clock.waitForTimers(t, 1) // the metrics loop is waiting for its period
	clock.Step(time.Second)
	eventually(t, func() bool { return fm.value("q/longest") == 1 })
}

func check(t *testing.T, fm *fakeMetrics, want map[string]float64) {
	t.Helper()
	for k, w := range want {
		if got := fm.value(k); got != w {
			t.Errorf("%s = %v, want %v", k, got, w)
		}
	}
}

func checkObs(t *testing.T, fm *fakeMetrics, key string, want []float64) {
	t.Helper()
	if got := fm.observations(key); !slices.Equal(got, want) {
		t.Errorf("%s observations = %v, want %v", key, got, want)
	}
}

// eventually spins (without sleeping) until cond holds or testTimeout passes.
func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met")
		}
		runtime.Gosched()
	}
}
