package daemons

import "github.com/spf13/cobra"

// Command is one daemon.
type Command struct {
	// Dir is the daemon's directory under cmd/: scheduler, ...
	Dir string
	// Binary is the name make build gives it: platform-scheduler, ...
	Binary string
	// New returns the daemon's command, its flags at their defaults. Its
	// command line is empty; parse one with ParseFlags, never Execute it.
	New func() *cobra.Command
}
