// Package featuregate is the --feature-gates flag every daemon shares: a
// set of named features, each ALPHA, BETA or GA with a default, switched
// with "Name=true,Other=false". An unknown name or a malformed value is a
// flag error naming the known gates, so a typo fails the start instead of
// being ignored. A gate is only ever declared for a behaviour it switches;
// a daemon with none has an empty set, which rejects every name.
package featuregate

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// Feature names a gate.
type Feature string

// Maturity of a feature.
const (
	Alpha = "ALPHA"
	Beta  = "BETA"
	GA    = "GA"
)

// Spec describes one known feature.
type Spec struct {
	Default    bool
	PreRelease string
	// LockToDefault rejects any attempt to set the gate to another value.
	LockToDefault bool
}

// Gate holds the known features and their current values.
type Gate struct {
	known   map[Feature]Spec
	enabled map[Feature]bool
}

var _ pflag.Value = (*Gate)(nil)

// New returns a gate over the known features, each at its default.
func New(known map[Feature]Spec) *Gate {
	g := &Gate{known: known, enabled: map[Feature]bool{}}
	for f, s := range known {
		g.enabled[f] = s.Default
	}
	return g
}

// Enabled reports whether f is on. Asking for an unknown feature is a
// programming error.
func (g *Gate) Enabled(f Feature) bool {
	on, ok := g.enabled[f]
	if !ok {
		panic(fmt.Sprintf("featuregate: unknown feature %q", f))
	}
	return on
}

// Set parses "A=true,B=false" and applies it; it implements pflag.Value.
func (g *Gate) Set(value string) error {
	for _, part := range strings.Split(value, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		if !ok {
			return fmt.Errorf("missing bool value for %s", part)
		}
		f := Feature(strings.TrimSpace(name))
		spec, known := g.known[f]
		if !known {
			return fmt.Errorf("unrecognized feature gate: %s (%s)", f, g.knownList())
		}
		on, err := strconv.ParseBool(strings.TrimSpace(val))
		if err != nil {
			return fmt.Errorf("invalid value of %s=%s: %v", f, val, err)
		}
		if spec.LockToDefault && on != spec.Default {
			return fmt.Errorf("cannot set feature gate %s to %v: it is locked to %v", f, on, spec.Default)
		}
		g.enabled[f] = on
	}
	return nil
}

// String renders the gates that differ from their defaults.
func (g *Gate) String() string {
	var parts []string
	for _, f := range g.names() {
		if g.enabled[f] != g.known[f].Default {
			parts = append(parts, fmt.Sprintf("%s=%v", f, g.enabled[f]))
		}
	}
	return strings.Join(parts, ",")
}

// Type implements pflag.Value.
func (g *Gate) Type() string { return "mapStringBool" }

func (g *Gate) names() []Feature {
	names := make([]Feature, 0, len(g.known))
	for f := range g.known {
		names = append(names, f)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

// knownList names the known gates for an error message.
func (g *Gate) knownList() string {
	if len(g.known) == 0 {
		return "this component has no feature gates"
	}
	names := make([]string, 0, len(g.known))
	for _, f := range g.names() {
		names = append(names, string(f))
	}
	return "known gates: " + strings.Join(names, ", ")
}

// AddFlag registers --feature-gates with a help text listing every gate.
func (g *Gate) AddFlag(fs *pflag.FlagSet) {
	usage := "A set of key=value pairs that describe feature gates for alpha/experimental features."
	if len(g.known) == 0 {
		usage += " This component has no feature gates yet: every name is rejected."
	} else {
		var lines []string
		for _, f := range g.names() {
			s := g.known[f]
			lines = append(lines, fmt.Sprintf("%s=true|false (%s - default=%v)", f, s.PreRelease, s.Default))
		}
		usage += " Options are:\n" + strings.Join(lines, "\n")
	}
	fs.Var(g, "feature-gates", usage)
}
