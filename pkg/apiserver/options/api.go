package options

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// API configures behaviour of the resource API.
type API struct {
	// EventTTL is how long events are kept.
	EventTTL time.Duration
	// WatchCache serves watches and lists from memory.
	WatchCache bool
	// DefaultWatchCacheSize is how many recent events each resource's cache keeps.
	DefaultWatchCacheSize int
	// WatchCacheSizes overrides the size per resource: "resource[.group]#size".
	WatchCacheSizes []string
	// MinRequestTimeout is the least time a watch lasts without a
	// timeoutSeconds; each watch lasts a random time up to twice as long.
	MinRequestTimeout int
	// DefaultNotReadyTolerationSeconds and DefaultUnreachableTolerationSeconds
	// are the tolerationSeconds of the NoExecute tolerations of the
	// not-ready and unreachable node taints every new pod gets unless it
	// tolerates them already.
	DefaultNotReadyTolerationSeconds    int64
	DefaultUnreachableTolerationSeconds int64
	// sizes is WatchCacheSizes parsed, keyed by "resource.group".
	sizes map[string]int
}

// NewAPI returns the defaults.
func NewAPI() *API {
	return &API{EventTTL: time.Hour, WatchCache: true, DefaultWatchCacheSize: 100, MinRequestTimeout: 1800,
		DefaultNotReadyTolerationSeconds: 300, DefaultUnreachableTolerationSeconds: 300}
}

// AddFlags registers the API flags.
func (o *API) AddFlags(fs *pflag.FlagSet) {
	fs.DurationVar(&o.EventTTL, "event-ttl", o.EventTTL, "Amount of time to retain events.")
	fs.BoolVar(&o.WatchCache, "watch-cache", o.WatchCache, "Serve watches and lists from a cache in memory; false serves them from etcd directly.")
	fs.IntVar(&o.DefaultWatchCacheSize, "default-watch-cache-size", o.DefaultWatchCacheSize, "Number of recent events each resource's watch cache keeps; watches may resume from any of them.")
	fs.StringSliceVar(&o.WatchCacheSizes, "watch-cache-sizes", o.WatchCacheSizes, "Watch cache size per resource, overriding --default-watch-cache-size, as resource[.group]#size, e.g. pods#1000,deployments.apps#200.")
	fs.IntVar(&o.MinRequestTimeout, "min-request-timeout", o.MinRequestTimeout, "Seconds a watch lasts at least when it sets no timeoutSeconds; each lasts a random time between this and twice this.")
	fs.Int64Var(&o.DefaultNotReadyTolerationSeconds, "default-not-ready-toleration-seconds", o.DefaultNotReadyTolerationSeconds, "Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration.")
	fs.Int64Var(&o.DefaultUnreachableTolerationSeconds, "default-unreachable-toleration-seconds", o.DefaultUnreachableTolerationSeconds, "Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration.")
}

// Validate checks the API options.
func (o *API) Validate() []error {
	var errs []error
	if o.EventTTL < time.Second {
		errs = append(errs, fmt.Errorf("--event-ttl: %v must be at least 1s", o.EventTTL))
	}
	if o.DefaultWatchCacheSize <= 0 {
		errs = append(errs, fmt.Errorf("--default-watch-cache-size: %d must be positive", o.DefaultWatchCacheSize))
	}
	if o.MinRequestTimeout <= 0 {
		errs = append(errs, fmt.Errorf("--min-request-timeout: %d must be positive", o.MinRequestTimeout))
	}
	if o.DefaultNotReadyTolerationSeconds < 0 {
		errs = append(errs, fmt.Errorf("--default-not-ready-toleration-seconds: %d must not be negative", o.DefaultNotReadyTolerationSeconds))
	}
	if o.DefaultUnreachableTolerationSeconds < 0 {
		errs = append(errs, fmt.Errorf("--default-unreachable-toleration-seconds: %d must not be negative", o.DefaultUnreachableTolerationSeconds))
	}
	o.sizes = map[string]int{}
	for _, s := range o.WatchCacheSizes {
		name, size, ok := strings.Cut(s, "#")
		n, err := strconv.Atoi(size)
		if !ok || name == "" || err != nil || n <= 0 {
			errs = append(errs, fmt.Errorf("--watch-cache-sizes: %q is not resource[.group]#size with a positive size", s))
			continue
		}
		if !strings.Contains(name, ".") {
			name += "."
		}
		o.sizes[name] = n
	}
	return errs
}

// WatchCacheSize returns the cache size of a resource ("pods", "" for the core group).
func (o *API) WatchCacheSize(resource, group string) int {
	if n, ok := o.sizes[resource+"."+group]; ok {
		return n
	}
	return o.DefaultWatchCacheSize
}
