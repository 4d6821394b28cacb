package framework

import (
	"fmt"
	"sync"
)

// StateKey names one plugin's data in a CycleState.
type StateKey string

// StateData is a plugin's data for one cycle. Clone must return a copy
// that later changes to the original do not affect (preemption clones the
// state to try removing pods).
type StateData interface {
	Clone() StateData
}

// CycleState carries plugins' data through one scheduling cycle of one
// pod: what PreFilter computes, Filter and Score read. Safe for concurrent
// use by the filters of several nodes; reads take no lock, since every
// node's Filter and Score of a cycle read the same few keys.
type CycleState struct {
	data sync.Map // StateKey -> StateData
	// SkipFilterPlugins and SkipScorePlugins name plugins whose PreFilter or
	// PreScore returned Skip; set by the framework before filtering.
	SkipFilterPlugins map[string]bool
	SkipScorePlugins  map[string]bool
	// SkipFilterMask is SkipFilterPlugins by position in the profile's
	// list of filter plugins (bit i: the i-th is skipped), set with it by
	// the framework so that filtering thousands of nodes needs no map
	// lookups. Only meaningful to the framework that set it.
	SkipFilterMask uint64
}

// NewCycleState returns an empty state.
func NewCycleState() *CycleState {
	return &CycleState{}
}

// Read returns the data under key, or ErrNotFound.
func (c *CycleState) Read(key StateKey) (StateData, error) {
	if v, ok := c.data.Load(key); ok {
		d, _ := v.(StateData)
		return d, nil
	}
	return nil, ErrNotFound
}

// ReadState returns the data under key as a T, for a plugin reading what
// an earlier extension point of its own wrote this cycle. The error names
// the key (which names the plugin) and wraps ErrNotFound when nothing is
// stored there; data of another type is an error too.
func ReadState[T StateData](c *CycleState, key StateKey) (T, error) {
	var zero T
	d, err := c.Read(key)
	if err != nil {
		return zero, fmt.Errorf("reading cycle state %q: %w", key, err)
	}
	s, ok := d.(T)
	if !ok {
		return zero, fmt.Errorf("cycle state %q is %T, not %T", key, d, zero)
	}
	return s, nil
}

// Write stores data under key.
func (c *CycleState) Write(key StateKey, v StateData) {
	c.data.Store(key, v)
}

// Delete removes key.
func (c *CycleState) Delete(key StateKey) {
	c.data.Delete(key)
}

// Clone returns a deep copy (each StateData cloned).
func (c *CycleState) Clone() *CycleState {
	if c == nil {
		return nil
	}
	n := NewCycleState()
	c.data.Range(func(k, v any) bool {
		n.data.Store(k, v.(StateData).Clone())
		return true
	})
	n.SkipFilterPlugins = c.SkipFilterPlugins
	n.SkipFilterMask = c.SkipFilterMask
	n.SkipScorePlugins = c.SkipScorePlugins
	return n
}
