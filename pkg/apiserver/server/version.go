package server

import (
	"encoding/json"
	"net/http"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/endpoints"
	"platform.io/platform/pkg/component/version"
)

// versionHandler serves /version: this build's version, the same one every
// binary of the build reports (see pkg/component/version). It is read-only.
func versionHandler(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		endpoints.WriteError(w, r, apierrors.New(http.StatusMethodNotAllowed, meta.StatusReasonMethodNotAllowed, "/version is read-only"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(version.Get())
}

// notFoundHandler answers every path nothing else serves with a 404
// Status, as upstream does, rather than net/http's plain-text page.
func notFoundHandler(w http.ResponseWriter, r *http.Request) {
	endpoints.WriteError(w, r, apierrors.New(http.StatusNotFound, meta.StatusReasonNotFound, "the server could not find the requested resource"))
}
