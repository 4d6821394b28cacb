package intern

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// get is how the table's users call it: look up, and on a miss compute the
// value and admit it when keep says so. It reports whether key was found.
func get(t *Table[int], key string, keep bool) (*Entry[int], bool) {
	e, miss := t.Lookup([]byte(key))
	if e != nil {
		return e, true
	}
	if keep {
		t.Admit(miss, key, len(key))
	}
	return nil, false
}

// TestAdmission checks when a key is stored: on its second consecutive
// miss in its bucket, never when it is longer than the limit, and never
// from misses the caller did not admit.
func TestAdmission(t *testing.T) {
	tests := []struct {
		name  string
		key   string
		keep  []bool // the caller's choice on each call
		found []bool // whether each call finds the key
	}{
		{"second miss admits", "Running", []bool{true, true, true, true}, []bool{false, false, true, true}},
		{"too long", strings.Repeat("L", 17), []bool{true, true, true}, []bool{false, false, false}},
		{"at the limit", strings.Repeat("M", 16), []bool{true, true, true}, []bool{false, false, true}},
		{"not admitted", "100m", []bool{false, false, false}, []bool{false, false, false}},
		{"not admitted, then admitted", "250m", []bool{false, true, true, true}, []bool{false, false, false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := New[int](64, 16)
			for i, keep := range tt.keep {
				e, found := get(tab, tt.key, keep)
				if found != tt.found[i] {
					t.Fatalf("call %d: found %v, want %v", i+1, found, tt.found[i])
				}
				if found && (e.Key != tt.key || e.Val != len(tt.key)) {
					t.Fatalf("call %d: entry %q=%d", i+1, e.Key, e.Val)
				}
			}
		})
	}
}

// TestCollision checks that two keys alternating in one bucket push each
// other out without ever returning the other's entry.
func TestCollision(t *testing.T) {
	tab := New[int](1, 16)
	for i := range 10 {
		for _, k := range []string{"alpha", "beta"} {
			if e, found := get(tab, k, true); found && e.Key != k {
				t.Fatalf("round %d: %q found as %q", i, k, e.Key)
			}
		}
	}
	for range 2 {
		get(tab, "beta", true)
	}
	if _, found := get(tab, "beta", true); !found {
		t.Error("beta not stored after two misses in a row")
	}
	if _, found := get(tab, "alpha", true); found {
		t.Error("alpha found in a bucket that holds beta")
	}
}

// TestKeyBytesNotKept checks that changing the bytes given to Lookup does
// not change what the table stores.
func TestKeyBytesNotKept(t *testing.T) {
	tab := New[int](8, 16)
	for range 3 {
		b := []byte("Pending")
		e, miss := tab.Lookup(b)
		if e == nil {
			tab.Admit(miss, string(b), 7)
		}
		for i := range b {
			b[i] = '!'
		}
	}
	if e, _ := tab.Lookup([]byte("Pending")); e == nil || e.Key != "Pending" {
		t.Fatalf("entry after the buffer changed: %+v", e)
	}
}

// TestNewRejectsBadSizes checks that a size that is not a power of two is
// refused at construction.
func TestNewRejectsBadSizes(t *testing.T) {
	for _, n := range []int{0, -4, 3, 1000} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%d) did not panic", n)
				}
			}()
			New[int](n, 8)
		}()
	}
}

// TestConcurrent looks up and admits more keys than the table has buckets
// from several goroutines (run it with -race): every entry found is the
// key's own.
func TestConcurrent(t *testing.T) {
	tab := New[int](64, 32)
	var keys []string
	for i := range 256 {
		keys = append(keys, fmt.Sprintf("value-%d", i%(40+i%7)))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 4 * len(keys) {
				k := keys[(i*5+g*97)%len(keys)]
				if e, found := get(tab, k, true); found && (e.Key != k || e.Val != len(k)) {
					errs <- fmt.Sprintf("%q: found %q=%d", k, e.Key, e.Val)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
