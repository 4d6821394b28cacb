package controller

import (
	"go.uber.org/zap"

	ctrl "platform.io/client/controller"
)

// NewLoop returns a worker loop that reconciles with r on workers
// goroutines. Its queue, named name, reports to the daemon's queue
// metrics, and every failed sync is logged at info by a logger named
// name; the key is retried as ctrl.Controller documents.
func (c Context) NewLoop(name string, r ctrl.Reconciler, workers int) (*ctrl.Controller, error) {
	return c.NewLoopWith(r, ctrl.Options{Name: name, Workers: workers})
}

// NewLoopWith is NewLoop for a loop that sets more of ctrl.Options (a
// rate limiter, a clock); MetricsProvider and OnError are filled in when
// opts leaves them unset.
func (c Context) NewLoopWith(r ctrl.Reconciler, opts ctrl.Options) (*ctrl.Controller, error) {
	if opts.MetricsProvider == nil {
		opts.MetricsProvider = c.Queues
	}
	if opts.OnError == nil {
		lg := c.Logger.Named(opts.Name)
		opts.OnError = func(key string, err error) {
			lg.Info("sync failed", zap.String("key", key), zap.Error(err))
		}
	}
	return ctrl.New(r, opts)
}
