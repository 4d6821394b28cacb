package options

import (
	"fmt"
	"net"
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
	// AdvertiseAddress is the address other members of the cluster reach
	// this server on, listed in the platform Service's Endpoints. Complete
	// fills it when it is not given.
	AdvertiseAddress net.IP
	// ShutdownDelayDuration is how long the server keeps serving normally
	// after a SIGTERM, with /readyz failing, so load balancers take it out.
	ShutdownDelayDuration time.Duration
	// ShutdownWatchTerminationGracePeriod is the time over which open
	// watches are closed once the other requests have drained.
	ShutdownWatchTerminationGracePeriod time.Duration
	// ShutdownSendRetryAfter answers requests that arrive after the delay
	// with 429 and Retry-After while the server drains, instead of closing
	// the listener.
	ShutdownSendRetryAfter bool
}

// NewGeneric returns the defaults.
func NewGeneric() *Generic {
	return &Generic{MaxRequestsInFlight: 400, MaxMutatingRequestsInFlight: 200, RequestTimeout: time.Minute}
}

// AddFlags registers the generic flags.
func (o *Generic) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.MaxRequestsInFlight, "max-requests-inflight", o.MaxRequestsInFlight, "The maximum number of non-mutating requests in flight at a given time. When the server exceeds this, it rejects requests with 429. Watches and other long-running requests do not count. Zero for no limit.")
	fs.IntVar(&o.MaxMutatingRequestsInFlight, "max-mutating-requests-inflight", o.MaxMutatingRequestsInFlight, "The maximum number of mutating requests in flight at a given time. When the server exceeds this, it rejects requests with 429. Zero for no limit.")
	fs.IPVar(&o.AdvertiseAddress, "advertise-address", o.AdvertiseAddress, "The IP address on which to advertise the apiserver to members of the cluster: it is listed in the Endpoints of the platform Service in the default namespace, so it must be reachable by the rest of the cluster. If blank or unspecified, --bind-address is used when it is a specific address, else the host's first non-loopback address.")
	fs.DurationVar(&o.ShutdownDelayDuration, "shutdown-delay-duration", o.ShutdownDelayDuration, "Time to delay the termination. During that time the server keeps serving requests normally while /readyz returns failure, so that load balancers stop sending it new traffic. Then it stops accepting, lets the requests in flight finish and closes watches.")
	fs.DurationVar(&o.ShutdownWatchTerminationGracePeriod, "shutdown-watch-termination-grace-period", o.ShutdownWatchTerminationGracePeriod, "The period over which the server closes the active watches during a graceful shutdown, spreading the closes so their clients do not all reconnect at once. 0 closes them all at once.")
	fs.BoolVar(&o.ShutdownSendRetryAfter, "shutdown-send-retry-after", o.ShutdownSendRetryAfter, "If true the HTTP server keeps listening until the non-long-running requests in flight have drained; during that window every new request is rejected with 429, a Retry-After header and Connection: close, instead of finding the port closed.")
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
	if o.ShutdownDelayDuration < 0 {
		errs = append(errs, fmt.Errorf("--shutdown-delay-duration: %v must not be negative", o.ShutdownDelayDuration))
	}
	if o.ShutdownWatchTerminationGracePeriod < 0 {
		errs = append(errs, fmt.Errorf("--shutdown-watch-termination-grace-period: %v must not be negative", o.ShutdownWatchTerminationGracePeriod))
	}
	return errs
}

// Complete fills AdvertiseAddress when it is not given: the bind address
// when that is a specific address, else the host's first non-loopback one.
func (o *Generic) Complete(bind net.IP) error {
	if o.AdvertiseAddress != nil && !o.AdvertiseAddress.IsUnspecified() {
		return nil
	}
	if bind != nil && !bind.IsUnspecified() {
		o.AdvertiseAddress = bind
		return nil
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return fmt.Errorf("--advertise-address: list the host's addresses: %w", err)
	}
	ip := firstHostAddress(addrs)
	if ip == nil {
		return fmt.Errorf("--advertise-address: the host has no non-loopback address; set it")
	}
	o.AdvertiseAddress = ip
	return nil
}

// firstHostAddress returns the first global unicast IPv4 address, else the
// first global unicast IPv6 one, else nil.
func firstHostAddress(addrs []net.Addr) net.IP {
	var v6 net.IP
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok || !n.IP.IsGlobalUnicast() {
			continue
		}
		if v4 := n.IP.To4(); v4 != nil {
			return v4
		}
		if v6 == nil {
			v6 = n.IP
		}
	}
	return v6
}
