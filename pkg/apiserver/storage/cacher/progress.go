package cacher

import (
	"context"
	"sync"
	"time"
)

// progressInterval is how often etcd is asked for progress while reads
// wait for the cache to catch up: one request can be answered before the
// watch stream has caught up, so the asking goes on while anyone waits.
const progressInterval = 100 * time.Millisecond

// progressRequester asks etcd for progress notifications on behalf of all
// the reads that wait for the cache to catch up, once per interval however
// many wait. (A request per waiter, as before, made a storm of a thousand
// watches from the current state send etcd ten thousand requests a second,
// which slowed the very notifications they waited for until they gave up
// and each read the whole state from etcd.)
type progressRequester struct {
	request  func(context.Context) error
	interval time.Duration
	// ticks, when set, replaces the interval's ticker (a test's clock).
	ticks <-chan time.Time
	// mu guards waiting and running.
	mu      sync.Mutex
	waiting int
	running bool
}

// want asks for progress until the returned function is called.
func (p *progressRequester) want() (done func()) {
	p.mu.Lock()
	p.waiting++
	if !p.running {
		p.running = true
		go p.loop()
	}
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			p.waiting--
			p.mu.Unlock()
		})
	}
}

// loop requests progress at once and then every interval while anyone
// waits.
func (p *progressRequester) loop() {
	ticks := p.ticks
	if ticks == nil {
		t := time.NewTicker(p.interval)
		defer t.Stop()
		ticks = t.C
	}
	for {
		p.mu.Lock()
		if p.waiting == 0 {
			p.running = false
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 10*p.interval)
		p.request(ctx)
		cancel()
		<-ticks
	}
}
