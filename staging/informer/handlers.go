package informer

import (
	"context"
	"slices"
	"time"
)

// Registration is the handle of one added handler.
type Registration struct {
	synced func() bool
	remove func()
}

// HasSynced reports whether the informer has synced and this handler has
// been given every object of the initial list (or, for a late handler, the
// adds for the objects cached when it was added).
func (r *Registration) HasSynced() bool { return r.synced() }

// Remove stops deliveries to the handler; queued notifications are dropped.
// It may be called more than once.
func (r *Registration) Remove() { r.remove() }

// AddEventHandler adds a handler with the informer's default resync period.
func (inf *Informer[T]) AddEventHandler(h ResourceEventHandler[T]) (*Registration, error) {
	return inf.AddEventHandlerWithResync(h, inf.defaultResync)
}

// AddEventHandlerWithResync adds a handler that is also resynced every
// period (zero: never). If the informer already has objects the handler
// first receives an add for each of them.
func (inf *Informer[T]) AddEventHandlerWithResync(h ResourceEventHandler[T], period time.Duration) (*Registration, error) {
	period = max(period, 0)
	if period > 0 && period < MinResyncPeriod {
		period = MinResyncPeriod
	}
	l := newListener(h, period)
	inf.mu.Lock()
	defer inf.mu.Unlock()
	if inf.stopped {
		return nil, ErrStopped
	}
	if period > 0 {
		l.nextResync = inf.clock.Now().Add(period)
		inf.poke()
	}
	if inf.synced.Load() {
		items := inf.store.List()
		notes := make([]note[T], len(items))
		for i, obj := range items {
			notes[i] = note[T]{kind: noteAdd, initial: true, obj: obj}
		}
		l.push(notes...)
	}
	inf.listeners = append(inf.listeners, l)
	if inf.runCtx != nil {
		inf.startListener(l)
	}
	return &Registration{
		synced: func() bool { return inf.synced.Load() && l.initialLeft.Load() == 0 },
		remove: func() { inf.removeListener(l) },
	}, nil
}

func (inf *Informer[T]) removeListener(l *listener[T]) {
	inf.mu.Lock()
	if i := slices.Index(inf.listeners, l); i >= 0 {
		inf.listeners = append(inf.listeners[:i], inf.listeners[i+1:]...)
		inf.poke()
	}
	inf.mu.Unlock()
	l.remove()
}

// poke wakes the resync loop to recompute its period.
func (inf *Informer[T]) poke() {
	select {
	case inf.resyncChanged <- struct{}{}:
	default:
	}
}

// resyncCheckPeriod is the shortest resync period of any handler, or 0.
func (inf *Informer[T]) resyncCheckPeriod() time.Duration {
	inf.mu.Lock()
	defer inf.mu.Unlock()
	var p time.Duration
	for _, l := range inf.listeners {
		if l.resync > 0 && (p == 0 || l.resync < p) {
			p = l.resync
		}
	}
	return p
}

// resyncLoop wakes every check period and resyncs the handlers that are due.
func (inf *Informer[T]) resyncLoop(ctx context.Context) {
	for {
		var fire <-chan time.Time
		var stop func() bool
		if p := inf.resyncCheckPeriod(); p > 0 {
			t := inf.clock.NewTimer(p)
			fire, stop = t.C(), t.Stop
		}
		select {
		case <-ctx.Done():
			if stop != nil {
				stop()
			}
			return
		case <-inf.resyncChanged:
			if stop != nil {
				stop()
			}
		case <-fire:
			inf.resync()
		}
	}
}

// resync queues an update (old == new) of every cached object for each
// handler whose resync is due.
func (inf *Informer[T]) resync() {
	inf.mu.Lock()
	defer inf.mu.Unlock()
	if !inf.synced.Load() {
		return
	}
	now := inf.clock.Now()
	var notes []note[T]
	for _, l := range inf.listeners {
		if l.resync <= 0 || now.Before(l.nextResync) {
			continue
		}
		if notes == nil {
			items := inf.store.List()
			notes = make([]note[T], len(items))
			for i, obj := range items {
				notes[i] = note[T]{kind: noteUpdate, old: obj, obj: obj}
			}
		}
		l.push(notes...)
		l.nextResync = now.Add(l.resync)
	}
}
