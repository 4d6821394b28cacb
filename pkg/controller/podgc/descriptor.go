package podgc

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"

	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "podgc"

// Upstream's timing: a pass every gcCheckPeriod, and a node missing from
// the cache for quarantineTime is checked on the server.
const (
	DefaultPeriod     = 20 * time.Second
	DefaultQuarantine = 40 * time.Second
)

// Options are the loop's flags.
type Options struct {
	// Threshold is --terminated-pod-gc-threshold.
	Threshold int
}

// NewOptions returns the flags at upstream's defaults.
func NewOptions() *Options { return &Options{Threshold: 12500} }

// AddFlags registers the loop's flags on fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.Threshold, "terminated-pod-gc-threshold", o.Threshold,
		"Number of terminated pods that can exist before the terminated pod garbage collector starts deleting terminated pods. If 0, the terminated pod garbage collector is disabled.")
}

// Validate reports invalid flag values.
func (o *Options) Validate() []error {
	if o.Threshold < 0 {
		return []error{fmt.Errorf("--terminated-pod-gc-threshold must not be negative, got %d", o.Threshold)}
	}
	return nil
}

// Timing sets the loop's clock and periods; tests shorten them.
type Timing struct {
	Period, Quarantine time.Duration
	Now                func() time.Time
}

// DefaultTiming is upstream's timing on the wall clock.
func DefaultTiming() Timing {
	return Timing{Period: DefaultPeriod, Quarantine: DefaultQuarantine, Now: time.Now}
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, func(c controller.Context, o *Options) (*GC, error) {
		return New(c, o, DefaultTiming())
	})
}

// New declares the Pod and Node informers on c and returns the loop.
func New(c controller.Context, opts *Options, tm Timing) (*GC, error) {
	pods, err := client.Inform(c.Informers, c.Clients.Pods)
	if err != nil {
		return nil, fmt.Errorf("podgc: %w", err)
	}
	nodes, err := client.Inform(c.Informers, c.Clients.Nodes)
	if err != nil {
		return nil, fmt.Errorf("podgc: %w", err)
	}
	return &GC{
		lg: c.Logger.Named(Name), pods: pods.Lister(), nodes: nodes.Lister(),
		api: liveAPI{c.Clients}, threshold: opts.Threshold, timing: tm,
		missingSince: map[string]time.Time{},
	}, nil
}

// liveAPI force-deletes pods and reads nodes on the server.
type liveAPI struct{ c *client.Set }

func (l liveAPI) ForceDeletePod(ctx context.Context, ns, name string, uid meta.UID) error {
	zero := int64(0)
	return l.c.Pods.Namespace(ns).Delete(ctx, name, &meta.DeleteOptions{
		GracePeriodSeconds: &zero, Preconditions: &meta.Preconditions{UID: &uid},
	})
}

func (l liveAPI) NodeExists(ctx context.Context, name string) (bool, error) {
	_, err := l.c.Nodes.Get(ctx, name, meta.GetOptions{})
	return err == nil, err
}

var _ api = liveAPI{}

// podRef names a pod in logs.
func podRef(p *corev1.Pod) string { return p.Namespace + "/" + p.Name }
