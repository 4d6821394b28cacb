// Package version is the one version of a build, shared by every binary:
// the API server's /version, each daemon's --version, its start log and
// the User-Agent of its API client all read Get. The values are set when
// linking (make build does it for every binary):
//
//	-ldflags "-X platform.io/platform/pkg/component/version.gitVersion=v1.32.0-platform.abc1234 \
//	          -X platform.io/platform/pkg/component/version.gitCommit=<sha> \
//	          -X platform.io/platform/pkg/component/version.gitTreeState=clean \
//	          -X platform.io/platform/pkg/component/version.buildDate=2026-01-02T15:04:05Z"
//
// A binary built without them (go build, go test) keeps the development
// placeholders below.
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

// Info is the version in upstream's shape, the body of /version. Major and
// minor state the upstream API level served.
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

// UserAgent is the User-Agent a component's API client sends, in
// upstream's form: "<component>/<gitVersion> (<os>/<arch>) platform/<commit>",
// with the commit shortened to 7 characters ("unknown" when not stamped).
func (i Info) UserAgent(component string) string {
	commit := i.GitCommit
	if len(commit) > 7 {
		commit = commit[:7]
	}
	if commit == "" {
		commit = "unknown"
	}
	return fmt.Sprintf("%s/%s (%s) platform/%s", component, i.GitVersion, i.Platform, commit)
}
