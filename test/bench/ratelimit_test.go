package bench

import (
	"context"
	"sync"
	"testing"
	"time"

	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"

	"platform.io/platform/test/integration/framework"
)

// BenchmarkClientRateLimit measures a client's sustained request rate
// against its QPS limit, at the daemons' default limits, with more
// goroutines than the limit lets through: after the burst, requests may go
// no faster than QPS, and a well-made limiter goes no slower either. The
// reported ratio is sustained rate / QPS; within 0.95..1.05 is the aim.
func BenchmarkClientRateLimit(b *testing.B) {
	s := framework.Start(b)
	for _, lim := range []struct {
		name  string
		qps   float32
		burst int
	}{
		{"controller-manager-20qps-burst30", 20, 30},
		{"scheduler-50qps-burst100", 50, 100},
	} {
		b.Run(lim.name, func(b *testing.B) {
			rc, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: lim.qps, Burst: lim.burst})
			if err != nil {
				b.Fatal(err)
			}
			set := client.NewSet(rc)
			// The burst, then five seconds' worth at the limit.
			sustained := int(lim.qps * 5)
			total := lim.burst + sustained
			var ratio float64
			for range b.N {
				ratio = measureRate(b, set, lim.burst, total) / float64(lim.qps)
			}
			b.ReportMetric(ratio, "rate/qps")
		})
	}
}

// measureRate sends total GETs from 8 goroutines and returns the rate of
// the requests after the first burst ones.
func measureRate(b *testing.B, set *client.Set, burst, total int) float64 {
	ctx := context.Background()
	var mu sync.Mutex
	var done int
	var afterBurst time.Time
	var wg sync.WaitGroup
	next := make(chan struct{}, total)
	for range total {
		next <- struct{}{}
	}
	close(next)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range next {
				if _, err := set.Namespaces.Get(ctx, "default", meta.GetOptions{}); err != nil {
					b.Error(err)
					return
				}
				mu.Lock()
				done++
				if done == burst {
					afterBurst = time.Now()
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return float64(total-burst) / time.Since(afterBurst).Seconds()
}
