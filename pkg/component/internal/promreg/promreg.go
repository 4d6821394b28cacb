// Package promreg registers collectors on a prometheus.Registerer so that
// two parts of one daemon asking for the same metric share it instead of
// failing: the collector already registered under the same description is
// returned in place of the new one.
package promreg

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Register registers c on reg and returns it, or the equal collector that
// reg already holds. A nil reg registers nothing.
func Register[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	if reg == nil {
		return c, nil
	}
	err := reg.Register(c)
	if err == nil {
		return c, nil
	}
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if existing, ok := are.ExistingCollector.(C); ok {
			return existing, nil
		}
	}
	var zero C
	return zero, fmt.Errorf("register metrics: %w", err)
}
