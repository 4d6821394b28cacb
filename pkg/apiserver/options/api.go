package options

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
)

// API configures behaviour of the resource API.
type API struct {
	// EventTTL is how long events are kept.
	EventTTL time.Duration
}

// NewAPI returns the defaults.
func NewAPI() *API { return &API{EventTTL: time.Hour} }

// AddFlags registers the API flags.
func (o *API) AddFlags(fs *pflag.FlagSet) {
	fs.DurationVar(&o.EventTTL, "event-ttl", o.EventTTL, "Amount of time to retain events.")
}

// Validate checks the API options.
func (o *API) Validate() []error {
	if o.EventTTL < time.Second {
		return []error{fmt.Errorf("--event-ttl: %v must be at least 1s", o.EventTTL)}
	}
	return nil
}
