package simnode

import (
	"errors"
	"net/http"
	"strings"
)

// Handler is the agent's control endpoint, for tests and operators:
//
//	POST /nodes/<name>/heartbeat/stop    stops the node's heartbeats
//	POST /nodes/<name>/heartbeat/resume  resumes them
//	GET  /nodes                           lists the node names, one a line
//
// An unknown node answers 404.
func (a *Agent) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /nodes", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte(strings.Join(a.names, "\n") + "\n"))
	})
	heartbeat := func(f func(string) error) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			err := f(r.PathValue("name"))
			switch {
			case errors.Is(err, ErrUnknownNode):
				http.Error(w, err.Error(), http.StatusNotFound)
			case err != nil:
				http.Error(w, err.Error(), http.StatusInternalServerError)
			default:
				w.WriteHeader(http.StatusNoContent)
			}
		}
	}
	mux.HandleFunc("POST /nodes/{name}/heartbeat/stop", heartbeat(a.StopHeartbeat))
	mux.HandleFunc("POST /nodes/{name}/heartbeat/resume", heartbeat(a.ResumeHeartbeat))
	return mux
}
