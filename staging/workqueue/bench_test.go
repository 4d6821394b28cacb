package workqueue

import (
	"fmt"
	"sync"
	"testing"
)

// BenchmarkQueueThroughput measures Add/Get/Done cycles per second with 1
// and 8 workers draining distinct items.
func BenchmarkQueueThroughput(b *testing.B) {
	for _, workers := range []int{1, 8} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			q := NewQueue(Options[int]{})
			var wg sync.WaitGroup
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						item, shutdown := q.Get()
						if shutdown {
							return
						}
						q.Done(item)
					}
				}()
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				q.Add(i)
			}
			q.ShutDownWithDrain()
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "items/s")
		})
	}
}
