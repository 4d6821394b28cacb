package controller

import (
	"fmt"

	"github.com/spf13/pflag"
)

// Syncs is a loop's worker-count flag, --concurrent-<x>-syncs: how many
// keys the loop reconciles at once. A loop whose only flag it is uses it
// as its Options; others embed it beside their own flags.
type Syncs struct {
	// Flag is the flag's name, without the leading dashes.
	Flag string
	// Help is the flag's usage text.
	Help string
	// Workers is the flag's value.
	Workers int
}

var _ Options = (*Syncs)(nil)

// NewSyncs returns the flag named flag at its default value def.
func NewSyncs(flag string, def int, help string) Syncs {
	return Syncs{Flag: flag, Help: help, Workers: def}
}

// AddFlags registers the flag on fs.
func (s *Syncs) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&s.Workers, s.Flag, s.Workers, s.Help)
}

// Validate reports a worker count below 1, naming the flag.
func (s *Syncs) Validate() []error {
	if s.Workers < 1 {
		return []error{fmt.Errorf("--%s must be at least 1, got %d", s.Flag, s.Workers)}
	}
	return nil
}
