package nsobjects

import (
	"context"
	"errors"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// fakeSource serves cached and consistent answers and counts the reads.
type fakeSource struct {
	cached, fresh []meta.Object
	err           error
	reads         map[string]int
}

func (f *fakeSource) list(_ context.Context, _, rv string) ([]meta.Object, error) {
	f.reads[rv]++
	if rv == "0" {
		return f.cached, f.err
	}
	return f.fresh, f.err
}

func TestList(t *testing.T) {
	lr := &corev1.LimitRange{ObjectMeta: meta.ObjectMeta{Name: "lr", Namespace: "ns"}}
	now := time.Unix(100, 0)
	clock := func() time.Time { return now }
	cases := []struct {
		name          string
		cached, fresh []meta.Object
		calls         int
		advance       time.Duration
		forget        bool
		want          int
		wantReads     map[string]int
	}{
		{name: "in the cache: no consistent read", cached: []meta.Object{lr}, calls: 2, want: 1, wantReads: map[string]int{"0": 2}},
		{name: "not yet cached: a consistent read finds it", fresh: []meta.Object{lr}, calls: 2, want: 1, wantReads: map[string]int{"0": 2, "": 2}},
		{name: "none: the empty answer is trusted", calls: 3, want: 0, wantReads: map[string]int{"0": 3, "": 1}},
		{name: "none: trusted until the TTL ends", calls: 2, advance: DefaultEmptyTTL, want: 0, wantReads: map[string]int{"0": 2, "": 2}},
		{name: "none: forgotten after a create", calls: 2, forget: true, want: 0, wantReads: map[string]int{"0": 2, "": 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			now = time.Unix(100, 0)
			src := &fakeSource{cached: c.cached, fresh: c.fresh, reads: map[string]int{}}
			l := New[*corev1.LimitRange](src.list, DefaultEmptyTTL, clock)
			var got []*corev1.LimitRange
			for i := range c.calls {
				if i > 0 {
					now = now.Add(c.advance)
					if c.forget {
						l.Forget("ns")
					}
				}
				var err error
				if got, err = l.List(t.Context(), "ns"); err != nil {
					t.Fatal(err)
				}
			}
			if len(got) != c.want {
				t.Errorf("listed %d, want %d", len(got), c.want)
			}
			for rv, n := range c.wantReads {
				if src.reads[rv] != n {
					t.Errorf("reads at rv %q: %d, want %d", rv, src.reads[rv], n)
				}
			}
		})
	}
}

func TestListErrors(t *testing.T) {
	boom := errors.New("boom")
	src := &fakeSource{err: boom, reads: map[string]int{}}
	if _, err := New[*corev1.LimitRange](src.list, DefaultEmptyTTL, nil).List(t.Context(), "ns"); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	wrong := &fakeSource{cached: []meta.Object{&corev1.ConfigMap{}}, reads: map[string]int{}}
	if _, err := New[*corev1.LimitRange](wrong.list, DefaultEmptyTTL, nil).List(t.Context(), "ns"); err == nil {
		t.Error("a listed object of another type was accepted")
	}
}
