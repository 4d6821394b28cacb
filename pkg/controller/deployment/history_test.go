package deployment

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/meta"
)

// oldRS is an old ReplicaSet with n pods, created at t0+age, at
// revision rev ("" for none).
func oldRS(name string, n int32, age time.Duration, rev string) *appsv1.ReplicaSet {
	var ann map[string]string
	if rev != "" {
		ann = map[string]string{RevisionAnnotation: rev}
	}
	return mkRS(name, n, n, age, ann)
}

func TestHistoryToDelete(t *testing.T) {
	deleting := oldRS("deleting", 0, 0, "1")
	deleting.DeletionTimestamp = &meta.Time{Time: t0}
	stale := oldRS("stale", 0, time.Second, "1")
	stale.Generation, stale.Status.ObservedGeneration = 2, 1
	tests := []struct {
		name  string
		old   []*appsv1.ReplicaSet
		limit *int32
		want  []string
	}{
		{
			// v1, v2, rollback to v1 (revision 3 on v1's ReplicaSet), v3:
			// old are v1 (created first, revision 3) and v2 (revision 2).
			name:  "after a rollback the oldest ReplicaSet has the highest old revision",
			old:   []*appsv1.ReplicaSet{oldRS("v1", 0, 0, "3"), oldRS("v2", 0, time.Minute, "2")},
			limit: new(int32(1)),
			want:  []string{"v2"},
		},
		{
			name:  "lowest revisions go first whatever the list order",
			old:   []*appsv1.ReplicaSet{oldRS("c", 0, 2*time.Minute, "9"), oldRS("a", 0, 0, "10"), oldRS("b", 0, time.Minute, "2")},
			limit: new(int32(1)),
			want:  []string{"b", "c"},
		},
		{
			// A ReplicaSet without a readable revision (adopted, or
			// written by hand) counts as revision 0 and must not stop the
			// sort: v5, created first, is the one to keep.
			name:  "a missing revision counts as 0",
			old:   []*appsv1.ReplicaSet{oldRS("v5", 0, 0, "5"), oldRS("adopted", 0, time.Minute, ""), oldRS("v2", 0, 2*time.Minute, "2")},
			limit: new(int32(1)),
			want:  []string{"adopted", "v2"},
		},
		{
			name:  "an unreadable revision counts as 0",
			old:   []*appsv1.ReplicaSet{oldRS("v5", 0, 0, "5"), oldRS("odd", 0, time.Minute, "x"), oldRS("v2", 0, 2*time.Minute, "2")},
			limit: new(int32(2)),
			want:  []string{"odd"},
		},
		{
			name:  "equal revisions go by creation",
			old:   []*appsv1.ReplicaSet{oldRS("newer", 0, time.Minute, "4"), oldRS("older", 0, 0, "4")},
			limit: new(int32(1)),
			want:  []string{"older"},
		},
		{
			name:  "ReplicaSets with pods or a stale status are kept and do not shift the cut",
			old:   []*appsv1.ReplicaSet{oldRS("busy", 1, 0, "1"), stale, oldRS("v3", 0, 2*time.Second, "3"), oldRS("v4", 0, 3*time.Second, "4")},
			limit: new(int32(2)),
			want:  nil,
		},
		{
			name:  "ReplicaSets being deleted do not count",
			old:   []*appsv1.ReplicaSet{deleting, oldRS("v2", 0, time.Second, "2")},
			limit: new(int32(1)),
			want:  nil,
		},
		{
			name:  "limit 0 deletes every idle old ReplicaSet",
			old:   []*appsv1.ReplicaSet{oldRS("v2", 0, time.Second, "2"), oldRS("v1", 0, 0, "1")},
			limit: new(int32(0)),
			want:  []string{"v1", "v2"},
		},
		{
			name: "no limit keeps 10",
			old: []*appsv1.ReplicaSet{oldRS("r1", 0, 0, "1"), oldRS("r2", 0, 0, "2"), oldRS("r3", 0, 0, "3"), oldRS("r4", 0, 0, "4"),
				oldRS("r5", 0, 0, "5"), oldRS("r6", 0, 0, "6"), oldRS("r7", 0, 0, "7"), oldRS("r8", 0, 0, "8"),
				oldRS("r9", 0, 0, "9"), oldRS("r10", 0, 0, "10"), oldRS("r11", 0, 0, "11")},
			want: []string{"r1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, rs := range historyToDelete(tc.old, tc.limit) {
				got = append(got, rs.Name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("deleted (-want +got):\n%s", diff)
			}
		})
	}
}
