package check

import "fmt"

// checkLists checks that every list is one read of all keys at one
// revision, its resourceVersion L.
//
// The method: a resourceVersion is etcd's modification revision, one
// global order of all writes. Every observation in the history (a write's
// answer, a get, a list item, a watch event, including deletes, which
// only watches see) says which state a key had from which revision on;
// the index collects them, and reports any two that disagree. A list at
// L must then show, for each key, the key's last known change at or
// before L: the same value at the same revision when present, and absent
// when that change was a delete (or no change is known). An item from
// before a change at or below L, or a key missing although its value is
// known to have lived through L (a list at L or later showed it, or a
// watch showed its next change after L), is a list that mixed revisions. The
// check is sound (each anomaly is a contradiction between observations)
// and as complete as the observations: the watchers, whose completeness
// checkWatches verifies, observe every revision of every key, so with
// them it is exact. Freshness (a quorum list must reflect every write
// acknowledged before it was sent) is checked by porcupine, where the
// list is a read of every key.
func checkLists(h History, ix *index) []Anomaly {
	var out []Anomaly
	lists := make([]Op, 0, len(h.Ops)+1)
	for _, op := range h.Ops {
		if op.Kind == List && op.Outcome == OK {
			lists = append(lists, op)
		}
	}
	if h.Final != nil {
		lists = append(lists, *h.Final)
	}
	for _, op := range lists {
		for _, k := range h.Keys {
			c, rv := ix.at(k, op.ListRV)
			item, found := op.Items[k]
			switch {
			case found && item.RV > op.ListRV:
				// Reported by the index.
			case found && (rv != item.RV || !c.present || c.value != item.Value):
				out = append(out, Anomaly{Check: "list", Detail: fmt.Sprintf(
					"list at %d shows %s=%s@%d, but %s changed to %v at revision %d <= %d: %v",
					op.ListRV, k, item.Value, item.RV, k, c, rv, op.ListRV, op)})
			case !found && c.present && ix.alive[c.value] >= op.ListRV:
				out = append(out, Anomaly{Check: "list", Detail: fmt.Sprintf(
					"list at %d lacks %s, which was %s from revision %d on: %v", op.ListRV, k, c.value, rv, op)})
			}
		}
	}
	return out
}
