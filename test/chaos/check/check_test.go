package check

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// base is a correct history of two keys: one client writes a, another b,
// a third lists, and one watcher sees every change from revision 1 on.
func base() History {
	at := func(ms int64) int64 { return ms * int64(time.Millisecond) }
	op := func(client int, kind Kind, key, value string, call, ret int64) Op {
		return Op{Client: client, Kind: kind, Key: key, Value: value, Call: at(call), Return: at(ret)}
	}
	created := func(o Op, rv int64) Op { o.Obj = Object{Value: o.Value, RV: rv}; return o }
	got := func(o Op, value string, rv int64) Op { o.Found, o.Obj = true, Object{Value: value, RV: rv}; return o }
	replace := func(o Op, expect int64) Op { o.ExpectRV = expect; return o }
	list := func(o Op, rv int64, items map[string]Object) Op { o.ListRV, o.Items = rv, items; return o }
	ev := func(t EventType, key, value string, rv, ms int64) Event {
		return Event{Type: t, Key: key, Value: value, RV: rv, At: at(ms)}
	}
	final := list(op(9, List, "", "", 200, 210), 6, map[string]Object{"b": {"b2", 6}})
	return History{
		Keys: []string{"a", "b"},
		Ops: []Op{
			created(op(0, Create, "a", "a1", 0, 10), 2),
			created(op(1, Create, "b", "b1", 5, 12), 3),
			got(op(1, Get, "a", "", 20, 30), "a1", 2),
			created(replace(op(0, Replace, "a", "a2", 40, 50), 2), 4),
			list(op(2, List, "", "", 60, 70), 4, map[string]Object{"a": {"a2", 4}, "b": {"b1", 3}}),
			op(0, Delete, "a", "", 80, 90),
			op(1, Get, "a", "", 100, 110),
			created(replace(op(1, Replace, "b", "b2", 120, 130), 3), 6),
			list(op(2, List, "", "", 115, 140), 6, map[string]Object{"b": {"b2", 6}}),
		},
		Watches: []Watch{{ID: 0, Sessions: []Session{{ListRV: 1, Items: map[string]Object{}, Events: []Event{
			ev(Added, "a", "a1", 2, 11),
			ev(Added, "b", "b1", 3, 13),
			ev(Modified, "a", "a2", 4, 51),
			ev(Deleted, "a", "a2", 5, 91),
			ev(Modified, "b", "b2", 6, 131),
		}}}}},
		Final: &final,
	}
}

func TestRun(t *testing.T) {
	ms := int64(time.Millisecond)
	events := func(h *History) *[]Event { return &h.Watches[0].Sessions[0].Events }
	tests := []struct {
		name string
		// mutate turns base into the case's history.
		mutate func(h *History)
		// want names the checks that must report; none means the history
		// must pass.
		want []string
	}{
		{name: "correct history", mutate: func(*History) {}},
		{
			name: "unknown writes: one applied after the client gave up, one never",
			mutate: func(h *History) {
				h.Keys = append(h.Keys, "c")
				h.Ops = append(h.Ops,
					Op{Client: 3, Kind: Create, Key: "c", Value: "c1", Call: 140 * ms, Return: 145 * ms, Outcome: Unknown},
					Op{Client: 1, Kind: Replace, Key: "b", Value: "b3", ExpectRV: 3, Call: 150 * ms, Return: 160 * ms, Outcome: Unknown},
					Op{Client: 0, Kind: Delete, Key: "a", Call: 150 * ms, Return: 160 * ms, Outcome: Unknown})
				*events(h) = append(*events(h), Event{Type: Added, Key: "c", Value: "c1", RV: 7, At: 170 * ms})
				h.Final.ListRV = 7
				h.Final.Items["c"] = Object{"c1", 7}
			},
		},
		{
			name: "relist after 410 leaves a gap",
			mutate: func(h *History) {
				s := &h.Watches[0].Sessions[0]
				s.Events = s.Events[:2]
				h.Watches[0].Sessions = append(h.Watches[0].Sessions, Session{ListRV: 6, Items: map[string]Object{"b": {"b2", 6}}, ListAt: 150 * ms})
			},
		},
		{
			name: "lost write: acknowledged create, later not found",
			mutate: func(h *History) {
				h.Keys = append(h.Keys, "c")
				h.Ops = append(h.Ops,
					Op{Client: 3, Kind: Create, Key: "c", Value: "c1", Call: 140 * ms, Return: 145 * ms, Obj: Object{"c1", 7}},
					Op{Client: 3, Kind: Get, Key: "c", Call: 150 * ms, Return: 155 * ms})
			},
			want: []string{"linearizability", "watch"},
		},
		{
			name: "stale read after an acknowledged replace",
			mutate: func(h *History) {
				h.Ops = append(h.Ops, Op{Client: 3, Kind: Get, Key: "a", Call: 52 * ms, Return: 55 * ms, Found: true, Obj: Object{"a1", 2}})
			},
			want: []string{"linearizability"},
		},
		{
			name: "stale quorum list",
			mutate: func(h *History) {
				h.Ops[4].Items["a"] = Object{"a1", 2}
				h.Ops[4].ListRV = 3
			},
			want: []string{"linearizability"},
		},
		{
			name: "list mixes revisions",
			mutate: func(h *History) {
				// Concurrent with the replace of b, so each key alone may
				// be read before it; but at revision 6 b was b2.
				h.Ops[8].Items["b"] = Object{"b1", 3}
			},
			want: []string{"list"},
		},
		{
			name: "list lacks a key that lived through its revision",
			mutate: func(h *History) {
				h.Ops = append(h.Ops, Op{Client: 3, Kind: List, Call: 55 * ms, Return: 75 * ms, ListRV: 4, Items: map[string]Object{"a": {"a2", 4}}})
			},
			want: []string{"list"},
		},
		{
			name: "dropped watch event",
			mutate: func(h *History) {
				*events(h) = slices.Delete(*events(h), 2, 3)
			},
			want: []string{"watch"},
		},
		{
			name: "duplicated watch event",
			mutate: func(h *History) {
				e := *events(h)
				*events(h) = slices.Insert(e, 3, e[2])
			},
			want: []string{"watch"},
		},
		{
			name: "watch resumes below what it saw",
			mutate: func(h *History) {
				h.Watches[0].Sessions[0].Events[2].RV = 3
			},
			want: []string{"watch", "values"},
		},
		{
			name: "value never written",
			mutate: func(h *History) {
				h.Ops[2].Obj.Value = "zz"
			},
			want: []string{"values"},
		},
		{
			name: "watch event of a value never written",
			mutate: func(h *History) {
				h.Watches[0].Sessions[0].Events[1].Value = "zz"
			},
			want: []string{"values"},
		},
		{
			name: "failed write took effect",
			mutate: func(h *History) {
				h.Ops = append(h.Ops, Op{Client: 3, Kind: Replace, Key: "b", Value: "b9", ExpectRV: 6, Call: 150 * ms, Return: 155 * ms, Outcome: Failed, Code: 409})
				*events(h) = append(*events(h), Event{Type: Modified, Key: "b", Value: "b9", RV: 7, At: 156 * ms})
			},
			want: []string{"values"},
		},
		{
			name: "replayed state differs from the final list",
			mutate: func(h *History) {
				h.Watches[0].Sessions[0].Events[3].Type = Bookmark
			},
			want: []string{"watch"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := base()
			tc.mutate(&h)
			r := Run(h, Options{Timeout: 10 * time.Second})
			var got []string
			for _, a := range r.Anomalies {
				if !slices.Contains(got, a.Check) {
					got = append(got, a.Check)
				}
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("no %s anomaly; got %v", w, r.Anomalies)
				}
			}
			if len(tc.want) == 0 && len(r.Anomalies) > 0 {
				t.Errorf("anomalies in a correct history:\n%s", strings.Join(describe(r.Anomalies), "\n"))
			}
			if len(tc.want) > 0 {
				t.Logf("%s", strings.Join(describe(r.Anomalies), "\n"))
			}
		})
	}
}

func describe(as []Anomaly) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.String())
	}
	return out
}
