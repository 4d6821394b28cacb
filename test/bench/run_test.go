package bench

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// result is what one scenario measured.
type result struct {
	ops      int           // operations that succeeded
	errors   int           // operations that failed
	firstErr error         // the first failure
	wall     time.Duration // from the first start to the last finish
	lat      []time.Duration
}

// merge adds the operations of another round of the same scenario.
func (r *result) merge(o result) {
	r.ops += o.ops
	r.errors += o.errors
	if r.firstErr == nil {
		r.firstErr = o.firstErr
	}
	r.wall += o.wall
	r.lat = append(r.lat, o.lat...)
}

// opsPerSec is the throughput of the successful operations.
func (r *result) opsPerSec() float64 {
	if r.wall <= 0 {
		return 0
	}
	return float64(r.ops) / r.wall.Seconds()
}

// percentile returns the nearest-rank q-quantile of the latencies in
// milliseconds (q in (0, 1]).
func (r *result) percentile(q float64) float64 {
	if len(r.lat) == 0 {
		return math.NaN()
	}
	slices.Sort(r.lat)
	i := int(math.Ceil(q*float64(len(r.lat)))) - 1
	i = max(0, min(i, len(r.lat)-1))
	return float64(r.lat[i]) / float64(time.Millisecond)
}

// opTimeout bounds one operation, so a scenario stops soon after its limit
// even if the server stalls.
const opTimeout = 30 * time.Second

// run performs operations 0..n-1 with the given number of concurrent
// clients, each taking the next index, and stops starting new ones once
// limit has passed. op must be safe for concurrent use on distinct indexes.
func run(clients, n int, limit time.Duration, op func(ctx context.Context, i int) error) result {
	var (
		next  atomic.Int64
		mu    sync.Mutex
		total result
		wg    sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(limit)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine result
			mine.lat = make([]time.Duration, 0, n/clients+1)
			for {
				i := int(next.Add(1) - 1)
				if i >= n || time.Now().After(deadline) {
					break
				}
				ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
				t0 := time.Now()
				err := op(ctx, i)
				d := time.Since(t0)
				cancel()
				if err != nil {
					mine.errors++
					if mine.firstErr == nil {
						mine.firstErr = fmt.Errorf("operation %d: %w", i, err)
					}
					continue
				}
				mine.ops++
				mine.lat = append(mine.lat, d)
			}
			mu.Lock()
			total.merge(mine)
			mu.Unlock()
		}()
	}
	wg.Wait()
	total.wall = time.Since(start)
	return total
}
