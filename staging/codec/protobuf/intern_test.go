package protobuf

import (
	"fmt"
	"hash/maphash"
	"strings"
	"sync"
	"testing"
)

// TestIntern checks that intern returns the input's text, whatever the
// table holds, for strings of every length around the limits.
func TestIntern(t *testing.T) {
	tests := []string{"", "a", "ab", "True", "node.kubernetes.io/not-ready", strings.Repeat("x", internMaxLen), strings.Repeat("y", internMaxLen+1)}
	for _, s := range tests {
		for pass := range 3 { // miss, admit, hit
			if got := intern([]byte(s)); got != s {
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
			got := intern(b)
			for i := range b {
				b[i] = '!'
			}
			if got != s {
				t.Errorf("%q, pass %d: overwriting the input changed the result to %q", s, pass, got)
			}
		}
	}
}

// TestInternAdmission checks that a string is kept on its second miss in a
// row, and that a long one never is.
func TestInternAdmission(t *testing.T) {
	tests := []struct {
		s    string
		kept []bool // after each of three calls
	}{
		{"ContainersReady", []bool{false, true, true}},
		{strings.Repeat("L", internMaxLen+1), []bool{false, false, false}},
	}
	for _, tt := range tests {
		b := []byte(tt.s)
		slot := &internTable[maphash.Bytes(internSeed, b)&(internSlots-1)]
		slot.s.Store(nil)
		slot.missed.Store(0)
		for i, want := range tt.kept {
			intern(b)
			p := slot.s.Load()
			if got := p != nil && *p == tt.s; got != want {
				t.Errorf("%.20q after call %d: kept %v, want %v", tt.s, i+1, got, want)
			}
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
				if got := intern(b); got != string(b) {
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
