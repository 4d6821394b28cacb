package daemon

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/leaderelection"
	"platform.io/client/record"
	"platform.io/client/rest"

	"platform.io/platform/pkg/component/metrics"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/run"
)

// ErrLeadershipLost ends a daemon whose lock was taken or could not be
// renewed in time: it must stop acting at once, and exiting is the surest
// way (the supervisor restarts it as a candidate).
var ErrLeadershipLost = errors.New("daemon: leader election lost")

// healthTimeout is how long past its lease a leader may fail to renew
// before /healthz reports it, as upstream's adaptor does.
const healthTimeout = 20 * time.Second

// election runs the work while this replica holds the lock.
type election struct {
	lg   *zap.Logger
	le   *leaderelection.LeaderElector
	done chan struct{}
	errc chan error

	mu      sync.Mutex
	cancel  context.CancelFunc // mu guards cancel and stopped
	stopped bool
}

var _ run.Runnable = (*election)(nil)

func newElection(lg *zap.Logger, d *Deps, o *options.LeaderElection, name string, work run.Runnable) (*election, error) {
	rec := recorderAdapter{d.Recorder}
	attempt := leaderelection.DefaultAttemptTimeout(o.RenewDeadline, o.RetryPeriod)
	ec, err := electionClient(d.Config, attempt)
	if err != nil {
		return nil, err
	}
	lock, err := leaderelection.NewLock(o.ResourceLock, o.ResourceNamespace, o.ResourceName, d.Identity,
		leaderelection.NewRESTClient(ec), leaderelection.WithEventRecorder(rec))
	if err != nil {
		return nil, fmt.Errorf("--leader-elect-resource-lock: %w", err)
	}
	m, err := metrics.NewLeaderElection(d.Registry)
	if err != nil {
		return nil, err
	}
	e := &election{lg: lg, done: make(chan struct{}), errc: make(chan error, 1)}
	e.le, err = leaderelection.New(leaderelection.Config{
		Lock: lock, LeaseDuration: o.LeaseDuration, RenewDeadline: o.RenewDeadline, RetryPeriod: o.RetryPeriod,
		AttemptTimeout:  attempt,
		ReleaseOnCancel: true, Name: name, Metrics: m, Fence: d.fence,
		// A leader's failed renewal is what an operator needs to see when
		// a lease is lost; a candidate's failed reads are routine.
		OnError: func(err error) {
			if e.le != nil && e.le.IsLeader() {
				lg.Warn("lease renewal attempt failed", zap.Error(err))
				return
			}
			lg.Debug("leader election", zap.Error(err))
		},
		Callbacks: leaderelection.Callbacks{
			OnStartedLeading: func(ctx context.Context) {
				lg.Info("started leading", zap.String("identity", d.Identity))
				err := work.Run(ctx)
				if err == nil && ctx.Err() == nil {
					err = errors.New("the work ended while leading")
				}
				if err != nil {
					e.errc <- err
					e.stopCampaign()
				}
			},
			OnStoppedLeading: func() { lg.Info("stopped leading", zap.String("identity", d.Identity)) },
			OnNewLeader:      func(id string) { lg.Info("new leader", zap.String("identity", id)) },
		},
	})
	if err != nil {
		return nil, fmt.Errorf("leader election: %w", err)
	}
	d.IsLeader = e.le.IsLeader
	check := e.le.HealthCheck(healthTimeout)
	d.Server.SetLeaderElectionCheck(func(*http.Request) error { return check() })
	return e, nil
}

// electionUserAgentSuffix marks the election's requests in the API
// server's logs and metrics.
const electionUserAgentSuffix = "/leader-election"

// electionClient returns the client of the lock's requests: the work's
// configuration with a rate limiter and connections of its own, so a
// burst of work never makes a renewal wait (upstream gives the election
// its own client too). Its writes carry no leader lock.
//
// Each request is bounded by attempt, the elector's own bound on an
// attempt, and is never retried by the client: the elector retries every
// retry period on its own schedule, and a client-side backoff (up to
// rest.DefaultMaxBackoff between tries) would push the try that follows a
// restarted API server past the renew deadline.
func electionClient(work *rest.Config, attempt time.Duration) (*rest.Client, error) {
	cfg := *work
	cfg.UserAgent += electionUserAgentSuffix
	cfg.Timeout = attempt
	cfg.MaxRetries = -1
	c, err := rest.NewClient(&cfg)
	if err != nil {
		return nil, fmt.Errorf("leader election client: %w", err)
	}
	return c, nil
}

// Run campaigns until ctx ends or leadership is lost.
func (e *election) Run(ctx context.Context) error {
	defer close(e.done)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	e.mu.Lock()
	e.cancel = cancel
	stopped := e.stopped
	e.mu.Unlock()
	if stopped {
		return nil
	}
	e.le.Run(ctx)
	select {
	case err := <-e.errc:
		return fmt.Errorf("daemon: while leading: %w", err)
	default:
	}
	if ctx.Err() == nil {
		e.lg.Error("leader election lost")
		return ErrLeadershipLost
	}
	return nil
}

// stop stops the work, then releases the lock so a successor takes over at
// its next attempt; it returns when both are done.
func (e *election) stop(ctx context.Context) error {
	if !e.stopCampaign() {
		return nil
	}
	select {
	case <-e.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("daemon: stop leading: %w", ctx.Err())
	}
}

// stopCampaign cancels Run's election; it reports whether Run had begun.
func (e *election) stopCampaign() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stopped = true
	if e.cancel == nil {
		return false
	}
	e.cancel()
	return true
}

// recorderAdapter publishes leadership changes as events on the lock.
type recorderAdapter struct{ r record.Recorder }

func (a recorderAdapter) Event(obj any, eventType, reason, message string) {
	if obj == nil {
		return
	}
	if eventType == "" {
		eventType = corev1.EventTypeNormal
	}
	a.r.Event(obj, eventType, reason, message)
}
