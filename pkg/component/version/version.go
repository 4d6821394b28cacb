// Package version is the build's version, reported by the daemons'
// --version flag. The values are set when linking, e.g.
//
//	-ldflags "-X platform.io/platform/pkg/component/version.gitVersion=v1.32.0"
//
// and otherwise keep development placeholders.
package version

import (
	"fmt"
	"runtime"
)

// Set at link time; the only package variables, as the linker needs them.
var (
	gitVersion   = "v1.32.0-platform.dev"
	gitCommit    = ""
	gitTreeState = ""
	buildDate    = "1970-01-01T00:00:00Z"
)

// Info is the version in upstream's shape.
type Info struct {
	Major        string `json:"major"`
	Minor        string `json:"minor"`
	GitVersion   string `json:"gitVersion"`
	GitCommit    string `json:"gitCommit"`
	GitTreeState string `json:"gitTreeState"`
	BuildDate    string `json:"buildDate"`
	GoVersion    string `json:"goVersion"`
	Compiler     string `json:"compiler"`
	Platform     string `json:"platform"`
}

// Get returns this build's version.
func Get() Info {
	return Info{
		Major: "1", Minor: "32", GitVersion: gitVersion, GitCommit: gitCommit, GitTreeState: gitTreeState,
		BuildDate: buildDate, GoVersion: runtime.Version(), Compiler: runtime.Compiler,
		Platform: fmt.Sprintf("%s/%s", runtime.GOOS, runtime.GOARCH),
	}
}

// String is the git version.
func (i Info) String() string { return i.GitVersion }
