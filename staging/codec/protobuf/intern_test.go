package protobuf

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// TestIntern checks that internString returns the input's text, whatever the
// table holds, for strings of every length around the limits.
func TestIntern(t *testing.T) {
	tests := []string{"", "a", "ab", "True", "node.kubernetes.io/not-ready", strings.Repeat("x", internMaxLen), strings.Repeat("y", internMaxLen+1)}
	for _, s := range tests {
		for pass := range 3 { // miss, admit, hit
			if got := internString([]byte(s)); got != s {
				t.Errorf("%q, pass %d: got %q", s, pass, got)
			}
		}
	}
}

// TestInternCopies checks that an interned string never aliases the input,
// which the caller may overwrite.
func TestInternCopies(t *testing.T) {
	for _, s := range []string{"Running", "kube-system", strings.Repeat("z", internMaxLen+5)} {
		for pass := range 3 {
			b := []byte(s)
			got := internString(b)
			for i := range b {
				b[i] = '!'
			}
			if got != s {
				t.Errorf("%q, pass %d: overwriting the input changed the result to %q", s, pass, got)
			}
		}
	}
}

// TestInternAdmission checks that a string is shared from its second miss
// in a row on, that a long one never is, and that a one-byte one is not
// stored (it costs no allocation anyway).
func TestInternAdmission(t *testing.T) {
	tests := []struct {
		s      string
		shared []bool // whether each call returns the previous call's string
	}{
		{"intern-admission-test", []bool{false, true, true}},
		{strings.Repeat("L", internMaxLen+1), []bool{false, false, false}},
	}
	for _, tt := range tests {
		prev := internString([]byte(tt.s)) // the first miss
		for i, want := range tt.shared {
			got := internString([]byte(tt.s))
			if same := unsafe.StringData(got) == unsafe.StringData(prev); same != want {
				t.Errorf("%.20q, call %d: shared %v, want %v", tt.s, i+2, same, want)
			}
			prev = got
		}
	}
}

// TestInternConcurrent interns more strings than the table has buckets
// from several goroutines (run it with -race).
func TestInternConcurrent(t *testing.T) {
	var inputs [][]byte
	for i := range 2 * internSlots {
		inputs = append(inputs, []byte(fmt.Sprintf("value-%d", i%(internSlots/2+i%7))))
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var bad []string
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range inputs {
				b := inputs[(i*5+g*977)%len(inputs)]
				if got := internString(b); got != string(b) {
					mu.Lock()
					bad = append(bad, fmt.Sprintf("%q: got %q", b, got))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if len(bad) > 0 {
		t.Errorf("%d wrong results, the first: %s", len(bad), bad[0])
	}
}
