package server

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
)

// check is one named health check.
type check struct {
	name string
	fn   func(ctx context.Context) error
}

// healthHandler serves /healthz, /livez or /readyz: "ok" when every check
// passes, 500 with a per-check report otherwise; ?verbose lists each check
// and ?exclude=name skips one.
func healthHandler(checks []check) http.Handler {
	sort.Slice(checks, func(i, j int) bool { return checks[i].name < checks[j].name })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		exclude := map[string]bool{}
		for _, e := range r.URL.Query()["exclude"] {
			exclude[e] = true
		}
		var b strings.Builder
		failed := false
		for _, c := range checks {
			if exclude[c.name] {
				fmt.Fprintf(&b, "[+]%s excluded: ok\n", c.name)
				continue
			}
			if err := c.fn(ctx); err != nil {
				failed = true
				fmt.Fprintf(&b, "[-]%s failed: %v\n", c.name, err)
			} else {
				fmt.Fprintf(&b, "[+]%s ok\n", c.name)
			}
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if failed {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, "%shealthz check failed\n", b.String())
			return
		}
		if _, verbose := r.URL.Query()["verbose"]; verbose {
			fmt.Fprintf(w, "%shealthz check passed\n", b.String())
			return
		}
		fmt.Fprint(w, "ok")
	})
}
