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

// Annotations with which AddGroups records the grouping on the command.
const (
	// groupsAnnotation, on the command, lists the group names in order,
	// one a line.
	groupsAnnotation = "platform.io/flag-groups"
	// groupAnnotation, on each flag, names its group.
	groupAnnotation = "platform.io/flag-group"
)

// AddGroups adds every group's flags to cmd and prints them grouped in
// help. It records the grouping on cmd, for Groups.
func AddGroups(cmd *cobra.Command, groups []NamedFlagSet) {
	names := make([]string, 0, len(groups))
	for _, g := range groups {
		names = append(names, g.Name)
		g.Set.VisitAll(func(f *pflag.Flag) {
			if f.Annotations == nil {
				f.Annotations = map[string][]string{}
			}
			f.Annotations[groupAnnotation] = []string{g.Name}
		})
		cmd.Flags().AddFlagSet(g.Set)
	}
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[groupsAnnotation] = strings.Join(names, "\n")
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

// Groups returns the flag groups AddGroups gave cmd, in the order --help
// shows them, each with its flags sorted by name; nil if it gave none.
func Groups(cmd *cobra.Command) []NamedFlagSet {
	list := cmd.Annotations[groupsAnnotation]
	if list == "" {
		return nil
	}
	var groups []NamedFlagSet
	index := map[string]*pflag.FlagSet{}
	for _, name := range strings.Split(list, "\n") {
		fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
		index[name] = fs
		groups = append(groups, NamedFlagSet{Name: name, Set: fs})
	}
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if g := f.Annotations[groupAnnotation]; len(g) == 1 && index[g[0]] != nil {
			index[g[0]].AddFlag(f)
		}
	})
	return groups
}
