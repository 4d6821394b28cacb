package ttlafterfinished

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/informer"
)

var t0 = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

type fakeStore struct {
	live    *batchv1.Job
	deleted []string
}

func (f *fakeStore) Get(_ context.Context, _, name string) (*batchv1.Job, error) {
	if f.live == nil {
		return nil, apierrors.NewNotFound(batchv1.Resource("jobs"), name)
	}
	return f.live, nil
}

func (f *fakeStore) Delete(_ context.Context, j *batchv1.Job) error {
	f.deleted = append(f.deleted, j.Name)
	return nil
}

func finishedJob(ttl *int32, cond batchv1.JobConditionType, at time.Time) *batchv1.Job {
	j := &batchv1.Job{ObjectMeta: meta.ObjectMeta{Name: "j", Namespace: "ns"}}
	j.Spec.TTLSecondsAfterFinished = ttl
	if cond != "" {
		j.Status.Conditions = []batchv1.JobCondition{{Type: cond, Status: corev1.ConditionTrue, LastTransitionTime: meta.NewTime(at)}}
	}
	return j
}

func TestReconcile(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	done := t0.Add(-100 * time.Second)
	cases := []struct {
		name        string
		cached      *batchv1.Job
		live        *batchv1.Job
		wantDeleted []string
		wantRequeue time.Duration
	}{
		{name: "no ttl", cached: finishedJob(nil, batchv1.JobComplete, done), live: finishedJob(nil, batchv1.JobComplete, done)},
		{name: "not finished", cached: finishedJob(i32(0), "", done)},
		{name: "complete and expired", cached: finishedJob(i32(100), batchv1.JobComplete, done),
			live: finishedJob(i32(100), batchv1.JobComplete, done), wantDeleted: []string{"j"}},
		{name: "failed and expired", cached: finishedJob(i32(30), batchv1.JobFailed, done),
			live: finishedJob(i32(30), batchv1.JobFailed, done), wantDeleted: []string{"j"}},
		{name: "not yet", cached: finishedJob(i32(160), batchv1.JobComplete, done), wantRequeue: time.Minute},
		{name: "live ttl raised wins", cached: finishedJob(i32(10), batchv1.JobComplete, done),
			live: finishedJob(i32(400), batchv1.JobComplete, done), wantRequeue: 300 * time.Second},
		{name: "live ttl removed wins", cached: finishedJob(i32(10), batchv1.JobComplete, done),
			live: finishedJob(nil, batchv1.JobComplete, done)},
		{name: "gone on the server", cached: finishedJob(i32(10), batchv1.JobComplete, done)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := informer.NewStore[*batchv1.Job]()
			s.Add(tc.cached)
			fs := &fakeStore{live: tc.live}
			r := &reconciler{jobs: informer.NewLister(s, batchv1.Resource("jobs")), live: fs, now: func() time.Time { return t0 }}
			res, err := r.Reconcile(context.Background(), "ns/j")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantDeleted, fs.deleted); diff != "" {
				t.Errorf("deleted (-want +got):\n%s", diff)
			}
			if res.RequeueAfter != tc.wantRequeue {
				t.Errorf("requeue after %v, want %v", res.RequeueAfter, tc.wantRequeue)
			}
		})
	}
}
