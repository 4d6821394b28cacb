package controller

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"platform.io/client/discovery"

	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/component/run"
)

// Options are one loop's flags.
type Options interface {
	AddFlags(fs *pflag.FlagSet)
	Validate() []error
}

// Context is what a loop is built from: the daemon's clients, shared
// informers (declare with client.Inform before returning from New), event
// recorder and queue metrics.
type Context struct {
	*daemon.Deps
	// Discovery is the process's one view of what the API server serves,
	// shared by the loops that find resources through discovery; nil
	// makes DiscoverySet give the loop a set of its own.
	Discovery *discovery.Set
}

// DiscoverySet returns the shared discovery set, or a new one reading
// through the loop's client when the Context has none (a Context built
// for one loop, as tests do).
func (c Context) DiscoverySet() *discovery.Set {
	if c.Discovery != nil {
		return c.Discovery
	}
	return discovery.NewSet(c.REST, nil)
}

// Descriptor registers one loop.
type Descriptor struct {
	// Name is the loop's name in --controllers.
	Name string
	// DisabledByDefault keeps the loop off under "*"; it runs only when
	// named.
	DisabledByDefault bool
	// NewOptions returns the loop's flags at their defaults; nil for none.
	NewOptions func() Options
	// New builds the loop with its options (nil when NewOptions is nil).
	// It declares the informers it reads; the Runnable runs only while the
	// process leads, after every informer has synced.
	New func(c Context, opts Options) (run.Runnable, error)
}

// Enabled reports whether the loop named name runs under the
// --controllers list: "*" turns on every loop not disabled by default,
// "name" turns one on and "-name" off, whatever the order.
func Enabled(list []string, name string, disabledByDefault bool) bool {
	switch {
	case slices.Contains(list, "-"+name):
		return false
	case slices.Contains(list, name):
		return true
	}
	return slices.Contains(list, "*") && !disabledByDefault
}

// ValidateList checks that every name in list is "*" or a known loop,
// with or without "-".
func ValidateList(list []string, known []string) error {
	for _, c := range list {
		if c == "*" || slices.Contains(known, strings.TrimPrefix(c, "-")) {
			continue
		}
		return fmt.Errorf("--controllers: %q is not a known controller; known: %s", c, strings.Join(known, ", "))
	}
	return nil
}
