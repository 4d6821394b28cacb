package workqueue

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"
)

// RateLimiter decides how long an item must wait before it is re-queued.
// Implementations must be safe for concurrent use.
type RateLimiter[T comparable] interface {
	// When records a failure of item and returns how long to wait.
	When(item T) time.Duration
	// Forget clears the failure history of item.
	Forget(item T)
	// NumRequeues returns how many failures have been recorded for item.
	NumRequeues(item T) int
}

// ErrInvalidOptions is wrapped by constructor errors for bad options.
var ErrInvalidOptions = errors.New("invalid rate limiter options")

// DefaultControllerRateLimiter returns the usual controller limiter: the
// larger of a per-item exponential backoff from 5ms to 1000s and an overall
// token bucket of 10 qps with a burst of 100.
func DefaultControllerRateLimiter[T comparable]() RateLimiter[T] {
	return defaultControllerRateLimiter[T](RealClock{})
}

func defaultControllerRateLimiter[T comparable](c Clock) RateLimiter[T] {
	return MaxOf[T](
		&exponentialLimiter[T]{base: 5 * time.Millisecond, max: 1000 * time.Second, failures: map[T]int{}},
		newBucket[T](c, 10, 100),
	)
}

// ExponentialOptions configures NewExponentialRateLimiter.
type ExponentialOptions struct {
	// Base is the delay after the first failure; it doubles per failure.
	Base time.Duration
	// Max caps the delay.
	Max time.Duration
}

type exponentialLimiter[T comparable] struct {
	base, max time.Duration
	mu        sync.Mutex
	failures  map[T]int
}

// NewExponentialRateLimiter returns a per-item limiter whose delay is
// Base*2^failures, capped at Max.
func NewExponentialRateLimiter[T comparable](o ExponentialOptions) (RateLimiter[T], error) {
	if o.Base <= 0 || o.Max < o.Base {
		return nil, fmt.Errorf("exponential backoff base %v max %v: %w", o.Base, o.Max, ErrInvalidOptions)
	}
	return &exponentialLimiter[T]{base: o.Base, max: o.Max, failures: map[T]int{}}, nil
}

func (l *exponentialLimiter[T]) When(item T) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := l.failures[item]
	l.failures[item] = n + 1
	d := float64(l.base) * math.Pow(2, float64(n))
	if d >= float64(l.max) {
		return l.max
	}
	return time.Duration(d)
}

func (l *exponentialLimiter[T]) Forget(item T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.failures, item)
}

func (l *exponentialLimiter[T]) NumRequeues(item T) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.failures[item]
}

// BucketOptions configures NewBucketRateLimiter.
type BucketOptions struct {
	// QPS is the sustained refill rate in tokens per second.
	QPS float64
	// Burst is the bucket capacity; the bucket starts full.
	Burst int
	// Clock defaults to RealClock.
	Clock Clock
}

// bucketLimiter is a token bucket that hands out reservations: each When
// takes a token, possibly going into debt, and returns the wait until that
// token would have been available.
type bucketLimiter[T comparable] struct {
	clock  Clock
	qps    float64
	burst  float64
	mu     sync.Mutex
	tokens float64
	last   time.Time
}

// NewBucketRateLimiter returns an overall limiter shared by all items. It
// does not track items, so Forget is a no-op and NumRequeues is 0.
func NewBucketRateLimiter[T comparable](o BucketOptions) (RateLimiter[T], error) {
	if o.QPS <= 0 || math.IsInf(o.QPS, 0) || math.IsNaN(o.QPS) || o.Burst < 1 {
		return nil, fmt.Errorf("token bucket qps %v burst %d: %w", o.QPS, o.Burst, ErrInvalidOptions)
	}
	if o.Clock == nil {
		o.Clock = RealClock{}
	}
	return newBucket[T](o.Clock, o.QPS, o.Burst), nil
}

func newBucket[T comparable](c Clock, qps float64, burst int) *bucketLimiter[T] {
	return &bucketLimiter[T]{clock: c, qps: qps, burst: float64(burst), tokens: float64(burst), last: c.Now()}
}

func (l *bucketLimiter[T]) When(T) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	if elapsed := now.Sub(l.last); elapsed > 0 {
		l.tokens = math.Min(l.burst, l.tokens+elapsed.Seconds()*l.qps)
		l.last = now
	}
	l.tokens--
	if l.tokens >= 0 {
		return 0
	}
	return time.Duration(-l.tokens / l.qps * float64(time.Second))
}

func (l *bucketLimiter[T]) Forget(T) {}

func (l *bucketLimiter[T]) NumRequeues(T) int { return 0 }

type maxOfLimiter[T comparable] struct {
	limiters []RateLimiter[T]
}

// MaxOf combines limiters: When returns the longest delay and NumRequeues
// the highest count; every limiter records every When and Forget.
func MaxOf[T comparable](limiters ...RateLimiter[T]) RateLimiter[T] {
	return &maxOfLimiter[T]{limiters: append([]RateLimiter[T](nil), limiters...)}
}

func (m *maxOfLimiter[T]) When(item T) time.Duration {
	var longest time.Duration
	for _, l := range m.limiters {
		longest = max(longest, l.When(item))
	}
	return longest
}

func (m *maxOfLimiter[T]) Forget(item T) {
	for _, l := range m.limiters {
		l.Forget(item)
	}
}

func (m *maxOfLimiter[T]) NumRequeues(item T) int {
	var most int
	for _, l := range m.limiters {
		most = max(most, l.NumRequeues(item))
	}
	return most
}

// AddRateLimited adds item after the delay chosen by the queue's RateLimiter.
func (q *Queue[T]) AddRateLimited(item T) {
	q.AddAfter(item, q.limiter.When(item))
}

// Forget tells the RateLimiter that item succeeded, resetting its backoff.
// It does not remove the item from the queue.
func (q *Queue[T]) Forget(item T) {
	q.limiter.Forget(item)
}

// NumRequeues returns the RateLimiter's failure count for item.
func (q *Queue[T]) NumRequeues(item T) int {
	return q.limiter.NumRequeues(item)
}
