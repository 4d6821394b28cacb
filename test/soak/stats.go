package soak

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// maxKept is how many error messages a Tally keeps per name.
const maxKept = 5

// Tally counts, per operation or check name, what succeeded and what
// failed, keeping the first failures' messages.
type Tally struct {
	// mu guards counts.
	mu     sync.Mutex
	counts map[string]*count
}

type count struct {
	ok, failed int
	first      []string
}

// NewTally returns an empty tally.
func NewTally() *Tally { return &Tally{counts: map[string]*count{}} }

// Note counts one outcome of name: err nil for a success.
func (t *Tally) Note(name string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.counts[name]
	if c == nil {
		c = &count{}
		t.counts[name] = c
	}
	if err == nil {
		c.ok++
		return
	}
	c.failed++
	if len(c.first) < maxKept {
		c.first = append(c.first, err.Error())
	}
}

// Totals returns the successes and failures of every name together.
func (t *Tally) Totals() (ok, failed int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.counts {
		ok += c.ok
		failed += c.failed
	}
	return ok, failed
}

// Count returns the successes and failures of name.
func (t *Tally) Count(name string) (ok, failed int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c := t.counts[name]; c != nil {
		return c.ok, c.failed
	}
	return 0, 0
}

// Failures describes each name that failed at least once.
func (t *Tally) Failures() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, name := range t.namesLocked() {
		if c := t.counts[name]; c.failed > 0 {
			out = append(out, fmt.Sprintf("%s: %d of %d failed; first: %s", name, c.failed, c.ok+c.failed, strings.Join(c.first, " | ")))
		}
	}
	return out
}

// WriteTable writes the counts as a Markdown table.
func (t *Tally) WriteTable(w io.Writer, title string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "| %s | ok | failed |\n|---|---:|---:|\n", title)
	for _, name := range t.namesLocked() {
		c := t.counts[name]
		fmt.Fprintf(&b, "| %s | %d | %d |\n", name, c.ok, c.failed)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (t *Tally) namesLocked() []string {
	names := make([]string, 0, len(t.counts))
	for n := range t.counts {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
