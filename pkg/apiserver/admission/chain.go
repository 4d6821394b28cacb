package admission

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	apierrors "platform.io/client/api/errors"
)

// Named is an enabled plugin under its upstream name.
type Named struct {
	Name   string
	Plugin Interface
}

// Chain runs plugins in their order: Admit runs every Mutator, Validate
// every Validator. A plugin's error ends the step; an error that is not an
// API status becomes a 403 Forbidden naming the object.
type Chain struct {
	plugins []Named
	metrics *Metrics
	now     func() time.Time
}

// NewChain returns the chain of plugins, in the order given. metrics may
// be nil.
func NewChain(plugins []Named, metrics *Metrics) *Chain {
	return &Chain{plugins: plugins, metrics: metrics, now: time.Now}
}

// Names lists the plugins of the chain, in order.
func (c *Chain) Names() []string {
	out := make([]string, len(c.plugins))
	for i, p := range c.plugins {
		out[i] = p.Name
	}
	return out
}

// Admit runs the mutating plugins. When one asks for it (see
// Attributes.RequestReinvocation) they all run a second time, once.
func (c *Chain) Admit(ctx context.Context, a *Attributes) error {
	start := c.now()
	err := c.admitPass(ctx, a)
	if err == nil && a.reinvokeRequested {
		a.reinvoked = true
		err = c.admitPass(ctx, a)
		a.reinvoked, a.reinvokeRequested = false, false
	}
	c.metrics.observeStep(stepAdmit, a.Operation, err, c.now().Sub(start))
	return err
}

func (c *Chain) admitPass(ctx context.Context, a *Attributes) error {
	for _, p := range c.plugins {
		m, ok := p.Plugin.(Mutator)
		if !ok || !m.Handles(a.Operation) {
			continue
		}
		start := c.now()
		err := m.Admit(ctx, a)
		c.metrics.observePlugin(p.Name, stepAdmit, a.Operation, err, c.now().Sub(start))
		if err != nil {
			return asStatus(a, err)
		}
	}
	return nil
}

// Validate runs the validating plugins.
func (c *Chain) Validate(ctx context.Context, a *Attributes) error {
	start := c.now()
	err := c.validate(ctx, a)
	c.metrics.observeStep(stepValidate, a.Operation, err, c.now().Sub(start))
	return err
}

func (c *Chain) validate(ctx context.Context, a *Attributes) error {
	for _, p := range c.plugins {
		v, ok := p.Plugin.(Validator)
		if !ok || !v.Handles(a.Operation) {
			continue
		}
		start := c.now()
		err := v.Validate(ctx, a)
		c.metrics.observePlugin(p.Name, stepValidate, a.Operation, err, c.now().Sub(start))
		if err != nil {
			return asStatus(a, err)
		}
	}
	return nil
}

// asStatus keeps an API status error as it is and makes any other error a
// Forbidden on the object, as upstream does.
func asStatus(a *Attributes, err error) error {
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		return se
	}
	return apierrors.NewForbidden(a.GroupResource(), a.Name, err)
}

const (
	stepAdmit    = "admit"
	stepValidate = "validate"
)

// Metrics are upstream's admission metrics: the duration of each step
// (all mutating or all validating plugins) and of each plugin, by
// operation and outcome.
type Metrics struct {
	step   *prometheus.HistogramVec
	plugin *prometheus.HistogramVec
	// observers holds each series' observer once used (obsKey to
	// prometheus.Observer): a write observes about twenty, and resolving
	// labels every time hashes them all again.
	observers sync.Map
}

// obsKey names a series: name is "" for a step's.
type obsKey struct {
	name, step string
	op         Operation
	rejected   bool
}

// observer returns the observer of the series k.
func (m *Metrics) observer(k obsKey) prometheus.Observer {
	if o, ok := m.observers.Load(k); ok {
		return o.(prometheus.Observer)
	}
	var o prometheus.Observer
	if k.name == "" {
		o = m.step.WithLabelValues(k.step, string(k.op), strconv.FormatBool(k.rejected))
	} else {
		o = m.plugin.WithLabelValues(k.name, k.step, string(k.op), strconv.FormatBool(k.rejected))
	}
	m.observers.Store(k, o)
	return o
}

// NewMetrics registers the admission metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		step: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "apiserver_admission_step_admission_duration_seconds",
			Help:    "Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).",
			Buckets: []float64{0.005, 0.025, 0.1, 0.5, 1.0, 2.5},
		}, []string{"type", "operation", "rejected"}),
		plugin: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "apiserver_admission_controller_admission_duration_seconds",
			Help:    "Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).",
			Buckets: []float64{0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25},
		}, []string{"name", "type", "operation", "rejected"}),
	}
	reg.MustRegister(m.step, m.plugin)
	return m
}

func (m *Metrics) observeStep(step string, op Operation, err error, d time.Duration) {
	if m == nil {
		return
	}
	m.observer(obsKey{step: step, op: op, rejected: err != nil}).Observe(d.Seconds())
}

func (m *Metrics) observePlugin(name, step string, op Operation, err error, d time.Duration) {
	if m == nil {
		return
	}
	m.observer(obsKey{name: name, step: step, op: op, rejected: err != nil}).Observe(d.Seconds())
}
