package healthz

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"
)

// Check is one named health check.
type Check struct {
	Name  string
	Check func(r *http.Request) error
}

// Ping is the check that always passes.
func Ping() Check {
	return Check{Name: "ping", Check: func(*http.Request) error { return nil }}
}

// Set is a group of checks served under one path. It is safe for
// concurrent use.
type Set struct {
	name string // "healthz", "livez", "readyz"

	mu     sync.RWMutex // mu guards checks
	checks []Check
}

// NewSet returns a set served as name, holding checks.
func NewSet(name string, checks ...Check) (*Set, error) {
	s := &Set{name: name}
	return s, s.Add(checks...)
}

// Add adds checks; a name already present is an error and nothing is added.
func (s *Set) Add(checks ...Check) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	for _, c := range s.checks {
		seen[c.Name] = true
	}
	for _, c := range checks {
		if c.Name == "" || strings.Contains(c.Name, "/") {
			return fmt.Errorf("healthz: invalid check name %q", c.Name)
		}
		if seen[c.Name] {
			return fmt.Errorf("healthz: %s check %q added twice", s.name, c.Name)
		}
		seen[c.Name] = true
	}
	s.checks = append(s.checks, checks...)
	return nil
}

func (s *Set) list() []Check {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.checks)
}

// Install serves the set on mux at /NAME and each check at /NAME/CHECK.
func (s *Set) Install(lg *zap.Logger, mux *http.ServeMux) {
	mux.Handle("/"+s.name, s.handler(lg))
	mux.Handle("/"+s.name+"/", http.StripPrefix("/"+s.name+"/", s.single()))
}

// handler serves the whole set.
func (s *Set) handler(lg *zap.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		excluded := map[string]bool{}
		for _, e := range r.URL.Query()["exclude"] {
			for _, name := range strings.Split(e, ",") {
				if name = strings.TrimSpace(name); name != "" {
					excluded[name] = true
				}
			}
		}
		var out strings.Builder
		failed := false
		for _, c := range s.list() {
			if excluded[c.Name] {
				delete(excluded, c.Name)
				fmt.Fprintf(&out, "[+]%s excluded: ok\n", c.Name)
				continue
			}
			if err := c.Check(r); err != nil {
				failed = true
				lg.Info("health check failed", zap.String("endpoint", s.name), zap.String("check", c.Name), zap.Error(err))
				fmt.Fprintf(&out, "[-]%s failed: reason withheld\n", c.Name)
				continue
			}
			fmt.Fprintf(&out, "[+]%s ok\n", c.Name)
		}
		if len(excluded) > 0 {
			fmt.Fprintf(&out, "warn: some health checks cannot be excluded: no matches for %s\n", quoted(excluded))
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if failed {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, "%s%s check failed\n", out.String(), s.name)
			return
		}
		if _, verbose := r.URL.Query()["verbose"]; verbose {
			fmt.Fprintf(w, "%s%s check passed\n", out.String(), s.name)
			return
		}
		fmt.Fprint(w, "ok")
	})
}

// single serves one check named by the path.
func (s *Set) single() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := slices.IndexFunc(s.list(), func(c Check) bool { return c.Name == r.URL.Path })
		if i < 0 {
			http.NotFound(w, r)
			return
		}
		if err := s.list()[i].Check(r); err != nil {
			http.Error(w, fmt.Sprintf("internal server error: %v", err), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, "ok")
	})
}

func quoted(names map[string]bool) string {
	var list []string
	for n := range names {
		list = append(list, fmt.Sprintf("%q", n))
	}
	slices.Sort(list)
	return strings.Join(list, ",")
}

// Slot is a check whose function is set later; until then it passes.
type Slot struct {
	fn atomic.Pointer[func(*http.Request) error]
}

// Set makes fn the slot's check; nil empties the slot.
func (s *Slot) Set(fn func(*http.Request) error) {
	if fn == nil {
		s.fn.Store(nil)
		return
	}
	s.fn.Store(&fn)
}

// Check returns the slot as a check named name.
func (s *Slot) Check(name string) Check {
	return Check{Name: name, Check: func(r *http.Request) error {
		if fn := s.fn.Load(); fn != nil {
			return (*fn)(r)
		}
		return nil
	}}
}

// ErrShuttingDown is the error of a readiness check once shutdown began.
var ErrShuttingDown = errors.New("process is shutting down")
