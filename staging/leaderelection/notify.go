package leaderelection

import "sync"

// notifier calls OnNewLeader from a goroutine of its own, one call at a
// time, with the latest holder set; holders set while a call runs are
// coalesced into the last of them.
type notifier struct {
	fn   func(string)
	wake chan struct{}
	quit chan struct{}

	mu     sync.Mutex
	latest string
}

// startNotifier starts the goroutine; a nil fn makes a notifier that drops
// everything.
func startNotifier(fn func(string)) *notifier {
	n := &notifier{fn: fn, wake: make(chan struct{}, 1), quit: make(chan struct{})}
	if fn != nil {
		go n.loop()
	}
	return n
}

// set records the holder; "" (nobody) is never reported.
func (n *notifier) set(holder string) {
	if n.fn == nil || holder == "" {
		return
	}
	n.mu.Lock()
	n.latest = holder
	n.mu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// stop ends the goroutine; a call in progress is not waited for.
func (n *notifier) stop() { close(n.quit) }

func (n *notifier) loop() {
	reported := ""
	for {
		select {
		case <-n.quit:
			return
		case <-n.wake:
		}
		n.mu.Lock()
		holder := n.latest
		n.mu.Unlock()
		if holder != reported {
			reported = holder
			n.fn(holder)
		}
	}
}
