package controller

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"platform.io/client/workqueue"
)

// Result says when a key should be visited again after a successful
// Reconcile; the zero value means only when something changes.
type Result struct {
	// RequeueAfter, when positive, visits the key again after that long.
	RequeueAfter time.Duration
	// Requeue visits the key again with the queue's backoff.
	Requeue bool
}

// Reconciler moves the object named by key toward its desired state. It
// must be idempotent: election gives no fencing, and a key may be visited
// again at any time.
type Reconciler interface {
	Reconcile(ctx context.Context, key string) (Result, error)
}

// Func adapts a function to a Reconciler.
type Func func(ctx context.Context, key string) (Result, error)

var _ Reconciler = Func(nil)

// Reconcile calls f.
func (f Func) Reconcile(ctx context.Context, key string) (Result, error) { return f(ctx, key) }

// ErrTerminal marks an error a retry cannot fix: the key is logged and
// forgotten instead of requeued. Wrap it with fmt.Errorf("...: %w", ...).
var ErrTerminal = errors.New("terminal")

// Options configure a Controller.
type Options struct {
	// Name names the queue in metrics and errors; required.
	Name string
	// Workers is how many keys are reconciled at once; 0 means 1.
	Workers int
	// RateLimiter spaces retries; nil means the queue's default.
	RateLimiter workqueue.RateLimiter[string]
	// MetricsProvider receives the queue's metrics; nil for none.
	MetricsProvider workqueue.MetricsProvider
	// Clock drives the queue; nil means the wall clock.
	Clock workqueue.Clock
	// OnError, when set, is told of every failed Reconcile.
	OnError func(key string, err error)
}

// Controller is one control loop: a queue of keys and the workers that
// reconcile them.
type Controller struct {
	opts  Options
	r     Reconciler
	queue *workqueue.Queue[string]
}

// New returns a controller that reconciles with r.
func New(r Reconciler, opts Options) (*Controller, error) {
	if opts.Name == "" {
		return nil, fmt.Errorf("controller: Options.Name is required")
	}
	if opts.Workers <= 0 {
		opts.Workers = 1
	}
	q := workqueue.NewQueue(workqueue.Options[string]{
		Name:            opts.Name,
		Clock:           opts.Clock,
		RateLimiter:     opts.RateLimiter,
		MetricsProvider: opts.MetricsProvider,
	})
	return &Controller{opts: opts, r: r, queue: q}, nil
}

// Name returns the controller's name.
func (c *Controller) Name() string { return c.opts.Name }

// Enqueue asks for key to be reconciled.
func (c *Controller) Enqueue(key string) { c.queue.Add(key) }

// EnqueueAfter asks for key to be reconciled after d.
func (c *Controller) EnqueueAfter(key string, d time.Duration) { c.queue.AddAfter(key, d) }

// Len returns the number of keys waiting.
func (c *Controller) Len() int { return c.queue.Len() }

// Run runs the workers until ctx ends, then lets the keys in progress
// finish and returns. Call it once.
func (c *Controller) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for range c.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c.next(ctx) {
			}
		}()
	}
	<-ctx.Done()
	c.queue.ShutDownWithDrain()
	wg.Wait()
	return nil
}

// next reconciles one key; it returns false once the queue is shut down.
func (c *Controller) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	res, err := c.r.Reconcile(ctx, key)
	switch {
	case err != nil:
		if c.opts.OnError != nil {
			c.opts.OnError(key, err)
		}
		if errors.Is(err, ErrTerminal) || ctx.Err() != nil {
			c.queue.Forget(key)
			return true
		}
		c.queue.AddRateLimited(key)
	case res.RequeueAfter > 0:
		c.queue.Forget(key)
		c.queue.AddAfter(key, res.RequeueAfter)
	case res.Requeue:
		c.queue.AddRateLimited(key)
	default:
		c.queue.Forget(key)
	}
	return true
}
