package deployment

import (
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func TestDeploymentTimedOut(t *testing.T) {
	deadline := int32(60)
	tests := []struct {
		name   string
		reason string
		update time.Time
		now    time.Time
		want   bool
	}{
		{"within the deadline", ReasonReplicaSetUpdated, t0, t0.Add(59 * time.Second), false},
		{"past the deadline", ReasonReplicaSetUpdated, t0, t0.Add(61 * time.Second), true},
		{"complete never times out", ReasonNewReplicaSetAvailable, t0, t0.Add(time.Hour), false},
		{"timed out stays so", ReasonProgressDeadlineExceeded, t0, t0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := mkDeployment(2, "1", "1")
			d.Spec.ProgressDeadlineSeconds = &deadline
			st := appsv1.DeploymentStatus{Conditions: []appsv1.DeploymentCondition{{
				Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: tc.reason, LastUpdateTime: meta.NewTime(tc.update),
			}}}
			if got := deploymentTimedOut(d, &st, tc.now); got != tc.want {
				t.Errorf("deploymentTimedOut = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCalculateStatus(t *testing.T) {
	tests := []struct {
		name       string
		replicas   int32
		old, newRS *appsv1.ReplicaSet
		wantAvail  corev1.ConditionStatus
		wantReason string
		wantUnav   int32
	}{
		{"minimum available", 4, mkRS("old", 2, 2, 0, nil), mkRS("new", 2, 1, time.Minute, nil), corev1.ConditionTrue, ReasonMinimumReplicasAvailable, 1},
		{"below the minimum", 4, mkRS("old", 2, 1, 0, nil), mkRS("new", 2, 1, time.Minute, nil), corev1.ConditionFalse, ReasonMinimumReplicasUnavailable, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := mkDeployment(tc.replicas, "1", "1")
			d.Generation = 3
			st := calculateStatus(d, []*appsv1.ReplicaSet{tc.old, tc.newRS}, tc.newRS, t0)
			c := getCondition(&st, appsv1.DeploymentAvailable)
			if c == nil || c.Status != tc.wantAvail || c.Reason != tc.wantReason {
				t.Errorf("Available %+v", c)
			}
			if st.ObservedGeneration != 3 || st.Replicas != 4 || st.UpdatedReplicas != 2 || st.UnavailableReplicas != tc.wantUnav {
				t.Errorf("status %+v", st)
			}
		})
	}
}

func TestSetStatusConditionKeepsTransitionTime(t *testing.T) {
	st := &appsv1.DeploymentStatus{}
	setStatusCondition(st, newCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, ReasonNewReplicaSetCreated, "a", t0))
	setStatusCondition(st, newCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, ReasonReplicaSetUpdated, "b", t0.Add(time.Minute)))
	c := getCondition(st, appsv1.DeploymentProgressing)
	if len(st.Conditions) != 1 || c.Reason != ReasonReplicaSetUpdated || !c.LastTransitionTime.Time.Equal(t0) || !c.LastUpdateTime.Time.Equal(t0.Add(time.Minute)) {
		t.Errorf("conditions %+v", st.Conditions)
	}
	setStatusCondition(st, newCondition(appsv1.DeploymentProgressing, corev1.ConditionFalse, ReasonProgressDeadlineExceeded, "c", t0.Add(2*time.Minute)))
	if c := getCondition(st, appsv1.DeploymentProgressing); !c.LastTransitionTime.Time.Equal(t0.Add(2 * time.Minute)) {
		t.Errorf("a status change kept the old transition time: %+v", c)
	}
}

func TestRevisions(t *testing.T) {
	rev := func(r string) *appsv1.ReplicaSet {
		return mkRS("rs"+r, 0, 0, 0, map[string]string{RevisionAnnotation: r})
	}
	rss := []*appsv1.ReplicaSet{rev("3"), rev("1"), rev("7"), rev("x")}
	if got := maxRevision(rss); got != 7 {
		t.Errorf("maxRevision = %d", got)
	}
	if got := lastRevision(rss); got != 3 {
		t.Errorf("lastRevision = %d", got)
	}
	d := mkDeployment(1, "1", "1")
	d.Annotations = map[string]string{"team": "a", RevisionAnnotation: "9", lastAppliedAnnotation: "{}"}
	rs := mkRS("n", 1, 1, 0, nil)
	if !setNewReplicaSetAnnotations(d, rs, "4", false) {
		t.Fatal("no change reported")
	}
	want := map[string]string{"team": "a", RevisionAnnotation: "4", DesiredReplicasAnnotation: "1", MaxReplicasAnnotation: "2"}
	for k, v := range want {
		if rs.Annotations[k] != v {
			t.Errorf("annotation %s = %q, want %q (all: %v)", k, rs.Annotations[k], v, rs.Annotations)
		}
	}
	if _, ok := rs.Annotations[lastAppliedAnnotation]; ok {
		t.Errorf("kubectl's annotation was copied")
	}
	if setNewReplicaSetAnnotations(d, rs, "3", true) {
		t.Errorf("a lower revision changed the replicaset")
	}
}

func TestOptionsValidate(t *testing.T) {
	o := NewOptions()
	if errs := o.Validate(); len(errs) != 0 || o.Workers != 5 || o.SyncPeriod != 30*time.Second {
		t.Fatalf("defaults %+v: %v", o, errs)
	}
	o.Workers, o.SyncPeriod = 0, 0
	if errs := o.Validate(); len(errs) != 2 {
		t.Errorf("invalid options: %v", errs)
	}
}
