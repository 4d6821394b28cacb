package check

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Anomaly is one violation a check found.
type Anomaly struct {
	// Check names the check: values, linearizability, list, watch.
	Check  string
	Detail string
}

func (a Anomaly) String() string { return a.Check + ": " + a.Detail }

// Report is the result of Run: what was checked and what was wrong.
type Report struct {
	// Ops counts the operations by outcome; LateWrites counts the Unknown
	// writes that took effect (their value was observed).
	OK, Failed, Unknown, LateWrites int
	// Lists counts the successful lists checked as snapshots, Events the
	// watch events checked, Relists and Reconnects the watchers' restarts.
	Lists, Events, Relists, Reconnects int
	Anomalies                          []Anomaly
}

func (r Report) String() string {
	return fmt.Sprintf("%d operations (%d ok, %d failed, %d unknown of which %d writes took effect), %d lists, %d watch events, %d watch reconnects, %d relists, %d anomalies",
		r.OK+r.Failed+r.Unknown, r.OK, r.Failed, r.Unknown, r.LateWrites, r.Lists, r.Events, r.Reconnects, r.Relists, len(r.Anomalies))
}

// Options tune Run.
type Options struct {
	// Timeout bounds porcupine's search per key; 0 means a minute. A
	// search that times out is reported as an anomaly: the history was
	// not shown linearizable.
	Timeout time.Duration
}

// Run checks h: every observed value was written by a write that did not
// fail and has one resourceVersion; each key's operations are
// linearizable; each list is an atomic snapshot; each watcher saw every
// change in the ranges it covered, once, in order, and ended in the final
// list's state.
func Run(h History, o Options) Report {
	if o.Timeout == 0 {
		o.Timeout = time.Minute
	}
	var r Report
	for _, op := range h.Ops {
		switch op.Outcome {
		case OK:
			r.OK++
			if op.Kind == List {
				r.Lists++
			}
		case Failed:
			r.Failed++
		default:
			r.Unknown++
		}
	}
	for _, w := range h.Watches {
		r.Relists += len(w.Sessions) - 1
		for _, s := range w.Sessions {
			r.Events += len(s.Events)
			r.Reconnects += s.Reconnects
		}
	}
	ix := newIndex(h)
	for _, op := range h.Ops {
		if _, seen := ix.seen[op.Value]; seen && op.Outcome == Unknown && (op.Kind == Create || op.Kind == Replace) {
			r.LateWrites++
		}
	}
	r.Anomalies = append(r.Anomalies, ix.anomalies...)
	r.Anomalies = append(r.Anomalies, checkLinearizable(h, ix, o.Timeout)...)
	r.Anomalies = append(r.Anomalies, checkLists(h, ix)...)
	r.Anomalies = append(r.Anomalies, checkWatches(h, ix)...)
	return r
}

// change is a key's state from one revision on: present with value, or
// absent (deleted).
type change struct {
	present bool
	value   string
}

func (c change) String() string {
	if !c.present {
		return "deleted"
	}
	return c.value
}

// index is what the whole history says about each write and revision.
type index struct {
	// writes are the Create and Replace operations by the value they write.
	writes map[string]Op
	// rv is the resourceVersion each value was observed with.
	rv map[string]int64
	// seen is the earliest time each value was observed: a read's return
	// or a watch event's arrival.
	seen map[string]int64
	// alive is the last revision at which each value is known to have
	// been present: a list at that revision showed it, or a watch showed
	// the next change of its key right after it.
	alive map[string]int64
	// changes are the known revisions of each key, and sorted the same
	// revisions in order.
	changes   map[string]map[int64]change
	sorted    map[string][]int64
	anomalies []Anomaly
}

func newIndex(h History) *index {
	ix := &index{writes: map[string]Op{}, rv: map[string]int64{}, seen: map[string]int64{}, alive: map[string]int64{}, changes: map[string]map[int64]change{}}
	for _, op := range h.Ops {
		if op.Kind != Create && op.Kind != Replace {
			continue
		}
		if prev, dup := ix.writes[op.Value]; dup {
			ix.add("values", "value %q written twice: %v and %v", op.Value, prev, op)
		}
		ix.writes[op.Value] = op
	}
	for _, op := range h.Ops {
		switch {
		case op.Outcome != OK:
		case op.Kind == Create || op.Kind == Replace:
			ix.observe(op.Key, op.Obj, op.Return, op.String())
		case op.Kind == Get && op.Found:
			ix.observe(op.Key, op.Obj, op.Return, op.String())
		case op.Kind == List:
			for k, obj := range op.Items {
				ix.observe(k, obj, op.Return, op.String())
				ix.live(obj.Value, op.ListRV)
				if obj.RV > op.ListRV {
					ix.add("list", "item %s@%d is newer than the list's resourceVersion %d: %v", obj.Value, obj.RV, op.ListRV, op)
				}
			}
		}
	}
	if h.Final != nil {
		for k, obj := range h.Final.Items {
			ix.observe(k, obj, h.Final.Return, "final list")
			ix.live(obj.Value, h.Final.ListRV)
		}
	}
	for _, w := range h.Watches {
		for _, s := range w.Sessions {
			state := map[string]string{}
			for k, obj := range s.Items {
				ix.observe(k, obj, s.ListAt, fmt.Sprintf("watcher %d list", w.ID))
				ix.live(obj.Value, s.ListRV)
				state[k] = obj.Value
			}
			for _, e := range s.Events {
				what := fmt.Sprintf("watcher %d event %s %s=%s@%d", w.ID, e.Type, e.Key, e.Value, e.RV)
				if v, ok := state[e.Key]; ok && e.Type != Bookmark {
					ix.live(v, e.RV-1)
				}
				switch e.Type {
				case Added, Modified:
					ix.observe(e.Key, Object{Value: e.Value, RV: e.RV}, e.At, what)
					state[e.Key] = e.Value
				case Deleted:
					ix.checkWritten(e.Key, e.Value, what)
					ix.record(e.Key, e.RV, change{}, what)
					ix.live(e.Value, e.RV-1)
					delete(state, e.Key)
				}
			}
		}
	}
	ix.sorted = map[string][]int64{}
	for k, m := range ix.changes {
		revs := make([]int64, 0, len(m))
		for r := range m {
			revs = append(revs, r)
		}
		slices.Sort(revs)
		ix.sorted[k] = revs
	}
	return ix
}

func (ix *index) add(check, format string, args ...any) {
	ix.anomalies = append(ix.anomalies, Anomaly{Check: check, Detail: fmt.Sprintf(format, args...)})
}

// checkWritten reports a value on key that no write that could have
// succeeded wrote; it returns whether the value is valid.
func (ix *index) checkWritten(key, value, what string) bool {
	w, ok := ix.writes[value]
	switch {
	case !ok:
		ix.add("values", "%s: value %q was never written", what, value)
		return false
	case w.Key != key:
		ix.add("values", "%s: value %q was written to %s, not %s", what, value, w.Key, key)
		return false
	case w.Outcome == Failed:
		ix.add("values", "%s: value %q is of a write that failed: %v", what, value, w)
		return false
	}
	return true
}

// observe notes that key held obj at obj.RV, as seen at time at.
func (ix *index) observe(key string, obj Object, at int64, what string) {
	if !ix.checkWritten(key, obj.Value, what) {
		return
	}
	if rv, ok := ix.rv[obj.Value]; ok && rv != obj.RV {
		ix.add("values", "%s: value %q seen with resourceVersion %d and %d", what, obj.Value, rv, obj.RV)
	} else {
		ix.rv[obj.Value] = obj.RV
	}
	if t, ok := ix.seen[obj.Value]; !ok || at < t {
		ix.seen[obj.Value] = at
	}
	ix.record(key, obj.RV, change{present: true, value: obj.Value}, what)
}

// live notes that value was present at revision rv.
func (ix *index) live(value string, rv int64) {
	if rv > ix.alive[value] {
		ix.alive[value] = rv
	}
}

// record notes that key changed to c at revision rv.
func (ix *index) record(key string, rv int64, c change, what string) {
	m := ix.changes[key]
	if m == nil {
		m = map[int64]change{}
		ix.changes[key] = m
	}
	if prev, ok := m[rv]; ok && prev != c {
		ix.add("values", "%s: %s at revision %d was also seen as %v", what, key, rv, prev)
		return
	}
	m[rv] = c
}

// at returns key's last known change at or before revision rv, and its
// revision (0 when none is known).
func (ix *index) at(key string, rv int64) (change, int64) {
	revs := ix.sorted[key]
	i, found := slices.BinarySearch(revs, rv)
	if found {
		return ix.changes[key][rv], rv
	}
	if i == 0 {
		return change{}, 0
	}
	return ix.changes[key][revs[i-1]], revs[i-1]
}

// revisions returns key's known change revisions in (from, to], in order.
func (ix *index) revisions(key string, from, to int64) []int64 {
	revs := ix.sorted[key]
	lo, _ := slices.BinarySearch(revs, from+1)
	hi, _ := slices.BinarySearch(revs, to+1)
	return revs[lo:hi]
}

// describeItems renders a list's items in key order, for reports.
func describeItems(items map[string]Object) string {
	keys := make([]string, 0, len(items))
	for k := range items {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s=%s@%d", k, items[k].Value, items[k].RV)
	}
	return "{" + b.String() + "}"
}
