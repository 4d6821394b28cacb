package runtime

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
)

// Parallelizer runs pieces of work on a bounded number of goroutines.
type Parallelizer struct {
	workers int
}

// NewParallelizer returns a parallelizer of n workers (at least 1).
func NewParallelizer(n int) Parallelizer {
	return Parallelizer{workers: max(n, 1)}
}

// chunkSize balances goroutine overhead and tail latency as upstream
// does: about sqrt(n) pieces per chunk, fewer when there are few pieces
// per worker.
func chunkSize(pieces, workers int) int {
	s := int(math.Sqrt(float64(pieces)))
	if r := pieces/workers + 1; s > r {
		s = r
	}
	return max(s, 1)
}

// Until runs work(i) for each i in [0, pieces) and returns when all ran or
// ctx ended (pieces not started are then skipped; ctx is checked before
// every piece, so that a filter pass stops soon after enough nodes fit).
func (p Parallelizer) Until(ctx context.Context, pieces int, work func(i int)) {
	if pieces <= 0 {
		return
	}
	chunk := chunkSize(pieces, p.workers)
	chunks := (pieces + chunk - 1) / chunk
	workers := min(p.workers, chunks)
	done := ctx.Done()
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				for i := c * chunk; i < min((c+1)*chunk, pieces); i++ {
					select {
					case <-done:
						return
					default:
						work(i)
					}
				}
			}
		}()
	}
	wg.Wait()
}
