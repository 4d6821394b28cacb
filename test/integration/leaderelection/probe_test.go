package leaderelection_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/rest"

	"platform.io/platform/test/integration/framework"
)

// probe measures how responsive the server is: it writes a ConfigMap
// every 50ms and keeps every write's span. An API server over an etcd on
// a slow disk now and then stalls every request for up to a second; a
// liveness deadline missed during such a stall says nothing about the
// election, so it is logged rather than failed. Safety (never two leaders
// at once) is checked regardless.
type probe struct {
	mu    sync.Mutex
	spans []span // finished writes
	cur   time.Time
}

type span struct{ start, end time.Time }

// stallThreshold is the write latency that counts as a stall.
const stallThreshold = 100 * time.Millisecond

func startProbe(t *testing.T, s *framework.Server) *probe {
	c, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	p := &probe{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() {
		cancel()
		<-done
	})
	go func() {
		defer close(done)
		cm := &corev1.ConfigMap{TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: meta.ObjectMeta{Name: "le-probe", Namespace: "default"}}
		for i := 0; ctx.Err() == nil; i++ {
			p.write(ctx, c, cm, i)
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	return p
}

// write puts the probe object once and records how long it took.
func (p *probe) write(ctx context.Context, c *rest.Client, cm *corev1.ConfigMap, i int) {
	start := time.Now()
	p.mu.Lock()
	p.cur = start
	p.mu.Unlock()
	cm.Data = map[string]string{"n": fmt.Sprint(i)}
	cm.ResourceVersion = ""
	req := c.Put().Version("v1").Namespace("default").Resource("configmaps").Name(cm.Name)
	if i == 0 {
		req = c.Post().Version("v1").Namespace("default").Resource("configmaps")
	}
	_ = req.Body(cm).Do(ctx).Error()
	p.mu.Lock()
	p.spans = append(p.spans, span{start, time.Now()})
	p.cur = time.Time{}
	p.mu.Unlock()
}

// worst returns the longest write overlapping [from, now], the one in
// flight included.
func (p *probe) worst(from time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	var w time.Duration
	if !p.cur.IsZero() {
		w = time.Since(p.cur)
	}
	for _, s := range p.spans {
		if s.end.After(from) {
			w = max(w, s.end.Sub(s.start))
		}
	}
	return w
}

// within checks that took (since from) is within bound; a miss while the
// server stalled is logged, any other miss fails t.
func (p *probe) within(t *testing.T, what string, from time.Time, took, bound time.Duration) {
	t.Helper()
	if took <= bound {
		t.Logf("%s after %v", what, took.Round(time.Millisecond))
		return
	}
	if w := p.worst(from); w >= stallThreshold {
		t.Logf("%s after %v, beyond %v, but the server stalled for %v meanwhile: not counted", what, took, bound, w)
		return
	}
	t.Errorf("%s after %v, want within %v", what, took, bound)
}
