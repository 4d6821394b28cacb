package options

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"platform.io/platform/pkg/component/version"
)

// Version is --version: false (the default), true to print the version and
// exit, raw to print every field of it.
type Version struct {
	value versionValue
}

type versionValue int

const (
	versionFalse versionValue = iota
	versionTrue
	versionRaw
)

var _ pflag.Value = (*versionValue)(nil)

func (v *versionValue) String() string {
	switch *v {
	case versionTrue:
		return "true"
	case versionRaw:
		return "raw"
	}
	return "false"
}

func (v *versionValue) Set(s string) error {
	if s == "raw" {
		*v = versionRaw
		return nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("%q is not true, false or raw", s)
	}
	*v = versionFalse
	if b {
		*v = versionTrue
	}
	return nil
}

func (v *versionValue) Type() string { return "version" }

// IsBoolFlag lets --version stand alone.
func (v *versionValue) IsBoolFlag() bool { return true }

// NewVersion returns the default.
func NewVersion() *Version { return &Version{} }

// AddFlags registers --version.
func (o *Version) AddFlags(fs *pflag.FlagSet) {
	fs.Var(&o.value, "version", "Print version information and quit; --version=raw prints every field.")
	fs.Lookup("version").NoOptDefVal = "true"
}

// PrintIfRequested prints the version to w when --version asked for it,
// reporting whether it did; the daemon then exits.
func (o *Version) PrintIfRequested(w io.Writer, name string) bool {
	switch o.value {
	case versionTrue:
		fmt.Fprintf(w, "%s %s\n", name, version.Get())
	case versionRaw:
		fmt.Fprintf(w, "%#v\n", version.Get())
	default:
		return false
	}
	return true
}
