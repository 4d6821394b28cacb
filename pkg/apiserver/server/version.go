package server

import (
	"encoding/json"
	"net/http"
	"runtime"
)

// Set at build time with -ldflags "-X platform.io/platform/pkg/apiserver/server.gitVersion=...".
var (
	gitVersion   = "v1.32.0-platform.dev"
	gitCommit    = ""
	gitTreeState = ""
	buildDate    = "1970-01-01T00:00:00Z"
)

// VersionInfo is the body of /version, in upstream's shape so clients can
// read it. Major and minor state the upstream API level this server serves.
type VersionInfo struct {
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

// Version returns this build's version information.
func Version() VersionInfo {
	return VersionInfo{
		Major: "1", Minor: "32", GitVersion: gitVersion, GitCommit: gitCommit, GitTreeState: gitTreeState,
		BuildDate: buildDate, GoVersion: runtime.Version(), Compiler: runtime.Compiler,
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
}

func versionHandler(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(Version())
}
