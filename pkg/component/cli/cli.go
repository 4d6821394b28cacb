// Package cli builds a daemon's cobra command with its flags shown in named
// groups in --help and usage, and runs it with the exit codes operators
// expect: 0 on success, 1 on a runtime failure, 2 on a bad flag.
package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// NamedFlagSet is one titled group of flags.
type NamedFlagSet struct {
	Name string
	Set  *pflag.FlagSet
}

// Group returns a named flag set filled by add.
func Group(name string, add func(*pflag.FlagSet)) NamedFlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	add(fs)
	return NamedFlagSet{Name: name, Set: fs}
}

// AddGroups adds every group's flags to cmd and prints them grouped in help.
func AddGroups(cmd *cobra.Command, groups []NamedFlagSet) {
	for _, g := range groups {
		cmd.Flags().AddFlagSet(g.Set)
	}
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "Usage:\n  %s\n", cmd.UseLine())
		for _, g := range groups {
			fmt.Fprintf(w, "\n%s flags:\n\n%s", g.Name, g.Set.FlagUsagesWrapped(100))
		}
	}
	cmd.SetUsageFunc(func(c *cobra.Command) error {
		usage(c.OutOrStderr())
		return nil
	})
	cmd.SetHelpFunc(func(c *cobra.Command, _ []string) {
		w := c.OutOrStdout()
		if c.Long != "" {
			fmt.Fprintln(w, strings.TrimSpace(c.Long))
			fmt.Fprintln(w)
		}
		usage(w)
	})
}
