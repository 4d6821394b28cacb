package check

import (
	"fmt"
	"sort"
)

// checkWatches checks every watcher's record:
//   - resourceVersions never go back: each event's is above the previous
//     event's or bookmark's, across reconnects; a bookmark's is at least
//     the previous one; a relist's is at least the last one seen;
//   - events replay: ADDED for an absent key, MODIFIED and DELETED for a
//     present one, DELETED carrying the value it removes;
//   - completeness: every known change of a key (a write's answer, a
//     read, another watcher's event) at a revision inside a range the
//     watcher covered, from a list's resourceVersion to the last one it
//     saw before relisting or ending, is among its events at that
//     revision with that value; with strictly increasing revisions this
//     makes every change appear exactly once;
//   - the state replayed from the last list and the events after it
//     equals the final quorum list.
//
// Values never written, or written by failed writes, are reported by the
// index for events as for every other observation.
func checkWatches(h History, ix *index) []Anomaly {
	var out []Anomaly
	var lastChange int64
	for _, m := range ix.changes {
		for r := range m {
			lastChange = max(lastChange, r)
		}
	}
	for _, w := range h.Watches {
		report := func(format string, args ...any) {
			out = append(out, Anomaly{Check: "watch", Detail: fmt.Sprintf("watcher %d: ", w.ID) + fmt.Sprintf(format, args...)})
		}
		var last int64
		var state map[string]Object
		for si, s := range w.Sessions {
			if s.ListRV < last {
				report("relist %d at resourceVersion %d, below %d seen before", si, s.ListRV, last)
			}
			var seen map[string]map[int64]change
			state, last, seen = replay(s, report)
			for _, k := range h.Keys {
				for _, r := range ix.revisions(k, s.ListRV, last) {
					want := ix.changes[k][r]
					got, ok := seen[k][r]
					switch {
					case !ok:
						report("missed %s -> %v at revision %d, inside (%d, %d] it covered", k, want, r, s.ListRV, last)
					case got != want:
						report("saw %s -> %v at revision %d, which was %v", k, got, r, want)
					}
				}
			}
		}
		if h.Final == nil || len(w.Sessions) == 0 {
			continue
		}
		if last < lastChange {
			report("ended at resourceVersion %d, before the last change at %d", last, lastChange)
			continue
		}
		if d := diffState(state, h.Final.Items); d != "" {
			report("replayed state differs from the final list at %d: %s", h.Final.ListRV, d)
		}
	}
	return out
}

// replay applies a session's events to its list, reporting revisions
// that do not increase and events that do not fit the state; it returns
// the state, the last resourceVersion seen and the change each event
// showed, by key and revision.
func replay(s Session, report func(format string, args ...any)) (map[string]Object, int64, map[string]map[int64]change) {
	seen := map[string]map[int64]change{}
	last := s.ListRV
	state := map[string]Object{}
	for k, obj := range s.Items {
		state[k] = obj
	}
	for _, e := range s.Events {
		if e.Type == Bookmark {
			if e.RV < last {
				report("bookmark at %d after resourceVersion %d", e.RV, last)
			}
			last = max(last, e.RV)
			continue
		}
		if e.RV <= last {
			report("event %s %s=%s@%d after resourceVersion %d", e.Type, e.Key, e.Value, e.RV, last)
		}
		last = max(last, e.RV)
		cur, present := state[e.Key]
		switch {
		case e.Type == Added && present:
			report("ADDED %s=%s@%d but it holds %s@%d", e.Key, e.Value, e.RV, cur.Value, cur.RV)
		case e.Type == Modified && !present:
			report("MODIFIED %s=%s@%d but it is absent", e.Key, e.Value, e.RV)
		case e.Type == Deleted && !present:
			report("DELETED %s@%d but it is absent", e.Key, e.RV)
		case e.Type == Deleted && cur.Value != e.Value:
			report("DELETED %s=%s@%d but it holds %s", e.Key, e.Value, e.RV, cur.Value)
		}
		if seen[e.Key] == nil {
			seen[e.Key] = map[int64]change{}
		}
		if e.Type == Deleted {
			delete(state, e.Key)
			seen[e.Key][e.RV] = change{}
		} else {
			state[e.Key] = Object{Value: e.Value, RV: e.RV}
			seen[e.Key][e.RV] = change{present: true, value: e.Value}
		}
	}
	return state, last, seen
}

// diffState describes how got differs from want, or returns "".
func diffState(got, want map[string]Object) string {
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	var d string
	for _, k := range names {
		g, gok := got[k]
		w, wok := want[k]
		switch {
		case gok && !wok:
			d += fmt.Sprintf(" %s: %s@%d, want absent;", k, g.Value, g.RV)
		case !gok && wok:
			d += fmt.Sprintf(" %s: absent, want %s@%d;", k, w.Value, w.RV)
		case g != w:
			d += fmt.Sprintf(" %s: %s@%d, want %s@%d;", k, g.Value, g.RV, w.Value, w.RV)
		}
	}
	return d
}
