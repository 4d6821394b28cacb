package server

import (
	"encoding/json"
	"net/http"

	"platform.io/platform/pkg/component/version"
)

// versionHandler serves /version: this build's version, the same one every
// binary of the build reports (see pkg/component/version).
func versionHandler(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(version.Get())
}
