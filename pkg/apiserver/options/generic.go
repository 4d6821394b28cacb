package options

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
)

// Generic holds limits that apply to every request.
type Generic struct {
	// MaxRequestsInFlight caps concurrent non-mutating requests; 0 is unlimited.
	MaxRequestsInFlight int
	// MaxMutatingRequestsInFlight caps concurrent mutating requests; 0 is unlimited.
	MaxMutatingRequestsInFlight int
	// RequestTimeout ends requests (but not watches) that run longer.
	RequestTimeout time.Duration
}

// NewGeneric returns the defaults.
func NewGeneric() *Generic {
	return &Generic{MaxRequestsInFlight: 400, MaxMutatingRequestsInFlight: 200, RequestTimeout: time.Minute}
}

// AddFlags registers the generic flags.
func (o *Generic) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.MaxRequestsInFlight, "max-requests-inflight", o.MaxRequestsInFlight, "The maximum number of non-mutating requests in flight at a given time. When the server exceeds this, it rejects requests with 429. Watches and other long-running requests do not count. Zero for no limit.")
	fs.IntVar(&o.MaxMutatingRequestsInFlight, "max-mutating-requests-inflight", o.MaxMutatingRequestsInFlight, "The maximum number of mutating requests in flight at a given time. When the server exceeds this, it rejects requests with 429. Zero for no limit.")
	fs.DurationVar(&o.RequestTimeout, "request-timeout", o.RequestTimeout, "The duration a handler must keep a request open before timing it out with 504. Watches are governed by timeoutSeconds and --min-request-timeout instead.")
}

// Validate checks the generic options.
func (o *Generic) Validate() []error {
	var errs []error
	if o.MaxRequestsInFlight < 0 {
		errs = append(errs, fmt.Errorf("--max-requests-inflight: %d must not be negative", o.MaxRequestsInFlight))
	}
	if o.MaxMutatingRequestsInFlight < 0 {
		errs = append(errs, fmt.Errorf("--max-mutating-requests-inflight: %d must not be negative", o.MaxMutatingRequestsInFlight))
	}
	if o.RequestTimeout <= 0 {
		errs = append(errs, fmt.Errorf("--request-timeout: %v must be positive", o.RequestTimeout))
	}
	return errs
}
