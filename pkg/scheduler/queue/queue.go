package queue

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"time"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// ErrClosed is returned by Pop once the queue is closed.
var ErrClosed = errors.New("queue: closed")

// Intervals of the background flushes, as upstream's.
const (
	backoffFlushInterval       = time.Second
	unschedulableFlushInterval = 30 * time.Second
)

// Clock is the queue's time source.
type Clock interface{ Now() time.Time }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// Options configure a Queue.
type Options struct {
	// Less orders the active queue (the queue-sort plugin's Less).
	Less func(a, b *framework.QueuedPodInfo) bool
	// Clock defaults to the real clock.
	Clock Clock
	// InitialBackoff doubles per attempt up to MaxBackoff (1s, 10s).
	InitialBackoff, MaxBackoff time.Duration
	// MaxInUnschedulable is the longest a pod stays in the unschedulable
	// pool before a periodic flush retries it (5m).
	MaxInUnschedulable time.Duration
	// PluginEvents are the cluster events each plugin registered; a plugin
	// not listed is taken to care about every event.
	PluginEvents map[string][]framework.ClusterEvent
	// OnChange, if set, is told the three sizes after every change.
	OnChange func(active, backoff, unschedulable int)
}

// Queue is the scheduling queue. It is safe for concurrent use.
type Queue struct {
	opts      Options
	clock     Clock
	nominator *Nominator

	mu   sync.Mutex
	cond *sync.Cond
	// mu guards everything below.
	active        *podHeap
	backoff       *podHeap
	unschedulable map[string]*framework.QueuedPodInfo
	// schedulingCycle counts pops; moveRequestCycle is the cycle of the
	// last move of unschedulable pods, so that a pod that failed in a cycle
	// during which the cluster changed goes to backoff, not the pool.
	schedulingCycle  int64
	moveRequestCycle int64
	closed           bool
}

// New returns an empty queue.
func New(opts Options) *Queue {
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	q := &Queue{opts: opts, clock: opts.Clock, nominator: NewNominator(), unschedulable: map[string]*framework.QueuedPodInfo{}}
	q.cond = sync.NewCond(&q.mu)
	q.active = newPodHeap(opts.Less)
	q.backoff = newPodHeap(func(a, b *framework.QueuedPodInfo) bool {
		return q.backoffExpiry(a).Before(q.backoffExpiry(b))
	})
	return q
}

func key(p *corev1.Pod) string { return p.Namespace + "/" + p.Name }

// Nominator returns the queue's nominated pods.
func (q *Queue) Nominator() *Nominator { return q.nominator }

// Add adds a new pending pod to the active queue.
func (q *Queue) Add(pod *corev1.Pod) {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.clock.Now()
	qpi := &framework.QueuedPodInfo{PodInfo: framework.NewPodInfo(pod), Timestamp: now, InitialAttemptTimestamp: now}
	k := key(pod)
	q.backoff.remove(k)
	delete(q.unschedulable, k)
	q.active.add(qpi)
	q.nominator.AddNominatedPod(qpi.PodInfo, "")
	q.changedLocked()
	q.cond.Broadcast()
}

// Update replaces a pending pod. A pod in the unschedulable pool whose
// spec, labels or annotations changed is retried; a pod found nowhere
// (being scheduled, or dropped) is added.
func (q *Queue) Update(oldPod, newPod *corev1.Pod) {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := key(newPod)
	pi := framework.NewPodInfo(newPod)
	if oldPod != nil {
		q.nominator.updateNominatedPod(oldPod, pi)
	}
	if qpi, ok := q.active.get(k); ok {
		q.active.add(refresh(qpi, pi))
		return
	}
	if qpi, ok := q.backoff.get(k); ok {
		q.backoff.add(refresh(qpi, pi))
		return
	}
	if qpi, ok := q.unschedulable[k]; ok {
		qpi = refresh(qpi, pi)
		if oldPod != nil && !specChanged(oldPod, newPod) {
			q.unschedulable[k] = qpi
			return
		}
		delete(q.unschedulable, k)
		q.requeueLocked(qpi)
		q.changedLocked()
		q.cond.Broadcast()
		return
	}
	now := q.clock.Now()
	q.active.add(&framework.QueuedPodInfo{PodInfo: pi, Timestamp: now, InitialAttemptTimestamp: now})
	q.nominator.AddNominatedPod(pi, "")
	q.changedLocked()
	q.cond.Broadcast()
}

func refresh(qpi *framework.QueuedPodInfo, pi *framework.PodInfo) *framework.QueuedPodInfo {
	c := *qpi
	c.PodInfo = pi
	return &c
}

// specChanged ignores status and bookkeeping: only what a plugin looks at.
func specChanged(a, b *corev1.Pod) bool {
	return !reflect.DeepEqual(a.Spec, b.Spec) || !reflect.DeepEqual(a.Labels, b.Labels) ||
		!reflect.DeepEqual(a.Annotations, b.Annotations)
}

// Delete removes a pod from every queue and forgets its nomination.
func (q *Queue) Delete(pod *corev1.Pod) {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := key(pod)
	q.active.remove(k)
	q.backoff.remove(k)
	delete(q.unschedulable, k)
	q.nominator.DeleteNominatedPodIfExists(pod)
	q.changedLocked()
}

// Pop blocks until a pod is active and returns it with its attempt
// counted, or returns ErrClosed once Close was called.
func (q *Queue) Pop() (*framework.QueuedPodInfo, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.active.Len() == 0 && !q.closed {
		q.cond.Wait()
	}
	if q.closed {
		return nil, ErrClosed
	}
	qpi := q.active.pop()
	qpi.Attempts++
	q.schedulingCycle++
	q.changedLocked()
	return qpi, nil
}

// SchedulingCycle returns the number of pods popped so far.
func (q *Queue) SchedulingCycle() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.schedulingCycle
}

// AddUnschedulableIfNotPresent returns a pod that failed in the given
// cycle: to the backoff queue when it failed with an error or the cluster
// changed since that cycle began, else to the unschedulable pool. A pod
// already queued again (it was updated meanwhile) is left as it is.
func (q *Queue) AddUnschedulableIfNotPresent(qpi *framework.QueuedPodInfo, cycle int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := key(qpi.Pod)
	if _, ok := q.active.get(k); ok {
		return
	}
	if _, ok := q.backoff.get(k); ok {
		return
	}
	if _, ok := q.unschedulable[k]; ok {
		return
	}
	qpi.Timestamp = q.clock.Now()
	if len(qpi.UnschedulablePlugins) == 0 || q.moveRequestCycle >= cycle {
		q.backoff.add(qpi)
	} else {
		q.unschedulable[k] = qpi
	}
	q.nominator.AddNominatedPod(qpi.PodInfo, "")
	q.changedLocked()
}

// MoveAllToActiveOrBackoffQueue retries the pods in the unschedulable pool
// that event may help (their rejecting plugins registered it) and that
// preCheck (nil for all) accepts.
func (q *Queue) MoveAllToActiveOrBackoffQueue(event framework.ClusterEvent, preCheck func(*corev1.Pod) bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	moved := false
	for k, qpi := range q.unschedulable {
		if !q.matches(qpi, event) || (preCheck != nil && !preCheck(qpi.Pod)) {
			continue
		}
		delete(q.unschedulable, k)
		q.requeueLocked(qpi)
		moved = true
	}
	q.moveRequestCycle = q.schedulingCycle
	if moved {
		q.changedLocked()
		q.cond.Broadcast()
	}
}

// matches reports whether one of the plugins that rejected qpi registered
// event; a pod rejected by no named plugin matches every event.
func (q *Queue) matches(qpi *framework.QueuedPodInfo, event framework.ClusterEvent) bool {
	if len(qpi.UnschedulablePlugins) == 0 {
		return true
	}
	for name := range qpi.UnschedulablePlugins {
		evs, ok := q.opts.PluginEvents[name]
		if !ok {
			return true
		}
		for _, r := range evs {
			if r.Match(event) {
				return true
			}
		}
	}
	return false
}

// requeueLocked puts a pod leaving the pool in backoff if its backoff has
// not expired, else in the active queue.
func (q *Queue) requeueLocked(qpi *framework.QueuedPodInfo) {
	if q.backoffExpiry(qpi).After(q.clock.Now()) {
		q.backoff.add(qpi)
		return
	}
	q.active.add(qpi)
}

// backoffDuration is InitialBackoff doubled per attempt after the first,
// at most MaxBackoff.
func (q *Queue) backoffDuration(attempts int) time.Duration {
	d := q.opts.InitialBackoff
	for i := 1; i < attempts; i++ {
		d *= 2
		if d >= q.opts.MaxBackoff {
			return q.opts.MaxBackoff
		}
	}
	return min(d, q.opts.MaxBackoff)
}

func (q *Queue) backoffExpiry(qpi *framework.QueuedPodInfo) time.Time {
	return qpi.Timestamp.Add(q.backoffDuration(qpi.Attempts))
}

// FlushBackoffCompleted moves the pods whose backoff expired to the active
// queue. Run calls it every second.
func (q *Queue) FlushBackoffCompleted() {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.clock.Now()
	moved := false
	for top := q.backoff.peek(); top != nil && !q.backoffExpiry(top).After(now); top = q.backoff.peek() {
		q.active.add(q.backoff.pop())
		moved = true
	}
	if moved {
		q.changedLocked()
		q.cond.Broadcast()
	}
}

// FlushUnschedulableLeftover retries the pods that stayed in the pool
// longer than MaxInUnschedulable. Run calls it every 30 seconds.
func (q *Queue) FlushUnschedulableLeftover() {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.clock.Now()
	moved := false
	for k, qpi := range q.unschedulable {
		if now.Sub(qpi.Timestamp) > q.opts.MaxInUnschedulable {
			delete(q.unschedulable, k)
			q.requeueLocked(qpi)
			moved = true
		}
	}
	if moved {
		q.changedLocked()
		q.cond.Broadcast()
	}
}

// Run flushes the backoff queue and the pool periodically until ctx ends,
// then closes the queue.
func (q *Queue) Run(ctx context.Context) {
	backoff := time.NewTicker(backoffFlushInterval)
	defer backoff.Stop()
	leftover := time.NewTicker(unschedulableFlushInterval)
	defer leftover.Stop()
	defer q.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case <-backoff.C:
			q.FlushBackoffCompleted()
		case <-leftover.C:
			q.FlushUnschedulableLeftover()
		}
	}
}

// Close wakes Pop callers; Pop fails from then on.
func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.cond.Broadcast()
}

// Sizes returns the number of pods in the active queue, the backoff queue
// and the unschedulable pool.
func (q *Queue) Sizes() (active, backoff, unschedulable int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.active.Len(), q.backoff.Len(), len(q.unschedulable)
}

// Where reports which queue holds the pod: "active", "backoff",
// "unschedulable" or "".
func (q *Queue) Where(pod *corev1.Pod) string {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := key(pod)
	if _, ok := q.active.get(k); ok {
		return "active"
	}
	if _, ok := q.backoff.get(k); ok {
		return "backoff"
	}
	if _, ok := q.unschedulable[k]; ok {
		return "unschedulable"
	}
	return ""
}

func (q *Queue) changedLocked() {
	if q.opts.OnChange != nil {
		q.opts.OnChange(q.active.Len(), q.backoff.Len(), len(q.unschedulable))
	}
}
