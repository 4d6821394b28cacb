package deployment

import (
	"maps"
	"sort"
	"strconv"

	appsv1 "platform.io/client/api/apps/v1"
)

// Labels and annotations the loop writes.
const (
	// UniqueLabelKey tells the ReplicaSets of one Deployment apart: it is
	// added to each ReplicaSet's template, selector and labels.
	UniqueLabelKey = appsv1.DefaultDeploymentUniqueLabelKey
	// RevisionAnnotation numbers the rollouts of a Deployment, on it and on
	// its ReplicaSets.
	RevisionAnnotation = "deployment.platform.io/revision"
	// UpstreamRevisionAnnotation carries the same number under the name
	// the stock kubectl reads in `kubectl rollout history` and `kubectl
	// rollout undo`, which it does not let clients configure; it is
	// written beside RevisionAnnotation and never read.
	UpstreamRevisionAnnotation = "deployment.kubernetes.io/revision"
	// RevisionHistoryAnnotation lists the earlier revisions a ReplicaSet
	// had; never copied from the Deployment.
	RevisionHistoryAnnotation = "deployment.platform.io/revision-history"
	// DesiredReplicasAnnotation is the Deployment's wanted count when the
	// ReplicaSet was last sized.
	DesiredReplicasAnnotation = "deployment.platform.io/desired-replicas"
	// MaxReplicasAnnotation is the most pods the Deployment could run (wanted
	// plus surge) when the ReplicaSet was last sized.
	MaxReplicasAnnotation = "deployment.platform.io/max-replicas"
	// lastAppliedAnnotation is kubectl apply's record; never copied.
	lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
)

// skipCopy reports whether a Deployment annotation stays off its
// ReplicaSets.
func skipCopy(key string) bool {
	switch key {
	case lastAppliedAnnotation, RevisionAnnotation, UpstreamRevisionAnnotation, RevisionHistoryAnnotation,
		DesiredReplicasAnnotation, MaxReplicasAnnotation, appsv1.DeprecatedRollbackTo:
		return true
	}
	return false
}

// revisionOf reads rs's revision annotation.
func revisionOf(rs *appsv1.ReplicaSet) (int64, error) {
	return strconv.ParseInt(rs.Annotations[RevisionAnnotation], 10, 64)
}

// maxRevision is the highest revision among rss.
func maxRevision(rss []*appsv1.ReplicaSet) int64 {
	var m int64
	for _, rs := range rss {
		if v, err := revisionOf(rs); err == nil {
			m = max(m, v)
		}
	}
	return m
}

// lastRevision is the revision before the highest one among rss, the one a
// rollback to revision 0 goes to.
func lastRevision(rss []*appsv1.ReplicaSet) int64 {
	var top, second int64
	for _, rs := range rss {
		v, err := revisionOf(rs)
		if err != nil {
			continue
		}
		switch {
		case v >= top:
			second, top = top, v
		case v > second:
			second = v
		}
	}
	return second
}

// copyAnnotations copies d's annotations to rs, except the loop's own;
// it reports whether rs changed.
func copyAnnotations(d *appsv1.Deployment, rs *appsv1.ReplicaSet) bool {
	changed := false
	for k, v := range d.Annotations {
		if skipCopy(k) {
			continue
		}
		if cur, ok := rs.Annotations[k]; ok && cur == v {
			continue
		}
		if rs.Annotations == nil {
			rs.Annotations = map[string]string{}
		}
		rs.Annotations[k] = v
		changed = true
	}
	return changed
}

// setReplicasAnnotations records desired and maxReplicas on rs; it reports
// whether rs changed.
func setReplicasAnnotations(rs *appsv1.ReplicaSet, desired, maxReplicas int32) bool {
	changed := false
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	for k, v := range map[string]int32{DesiredReplicasAnnotation: desired, MaxReplicasAnnotation: maxReplicas} {
		s := strconv.FormatInt(int64(v), 10)
		if rs.Annotations[k] != s {
			rs.Annotations[k] = s
			changed = true
		}
	}
	return changed
}

// replicasAnnotationsNeedUpdate reports whether setReplicasAnnotations
// would change rs.
func replicasAnnotationsNeedUpdate(rs *appsv1.ReplicaSet, desired, maxReplicas int32) bool {
	return rs.Annotations[DesiredReplicasAnnotation] != strconv.FormatInt(int64(desired), 10) ||
		rs.Annotations[MaxReplicasAnnotation] != strconv.FormatInt(int64(maxReplicas), 10)
}

// setNewReplicaSetAnnotations brings the new ReplicaSet's annotations up
// to date: d's annotations, the new revision when it is higher than rs's,
// and for a ReplicaSet being created the replicas annotations. It
// reports whether rs changed.
func setNewReplicaSetAnnotations(d *appsv1.Deployment, rs *appsv1.ReplicaSet, newRevision string, exists bool) bool {
	changed := copyAnnotations(d, rs)
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	old := rs.Annotations[RevisionAnnotation]
	oldInt, err := strconv.ParseInt(old, 10, 64)
	if err != nil {
		if old != "" {
			return changed
		}
		oldInt = 0
	}
	newInt, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return changed
	}
	if oldInt < newInt {
		rs.Annotations[RevisionAnnotation] = newRevision
		changed = true
	}
	if rs.Annotations[UpstreamRevisionAnnotation] != rs.Annotations[RevisionAnnotation] {
		rs.Annotations[UpstreamRevisionAnnotation] = rs.Annotations[RevisionAnnotation]
		changed = true
	}
	if !exists && setReplicasAnnotations(rs, replicasOf(d), replicasOf(d)+MaxSurge(d)) {
		changed = true
	}
	return changed
}

// setDeploymentAnnotationsTo makes d's annotations those of rs (for a
// rollback), keeping d's own values of the keys never copied.
func setDeploymentAnnotationsTo(d *appsv1.Deployment, rs *appsv1.ReplicaSet) {
	out := map[string]string{}
	for k, v := range d.Annotations {
		if skipCopy(k) {
			out[k] = v
		}
	}
	for k, v := range rs.Annotations {
		if !skipCopy(k) {
			out[k] = v
		}
	}
	d.Annotations = out
}

// byCreation sorts oldest first, then by name.
func byCreation(rss []*appsv1.ReplicaSet) {
	sort.SliceStable(rss, func(i, j int) bool {
		a, b := rss[i].CreationTimestamp.Time, rss[j].CreationTimestamp.Time
		if a.Equal(b) {
			return rss[i].Name < rss[j].Name
		}
		return a.Before(b)
	})
}

// byRevision sorts lowest revision first, the order history is pruned in.
// A missing or unreadable revision counts as 0; ties go by creation, then
// name. One comparison on the numbers keeps the order total: treating an
// unreadable revision as equal to every other one let a ReplicaSet
// without the annotation stop the sort, so the newest revision could be
// pruned before older ones.
func byRevision(rss []*appsv1.ReplicaSet) {
	sort.SliceStable(rss, func(i, j int) bool {
		a, b := revisionOrZero(rss[i]), revisionOrZero(rss[j])
		if a != b {
			return a < b
		}
		ta, tb := rss[i].CreationTimestamp.Time, rss[j].CreationTimestamp.Time
		if ta.Equal(tb) {
			return rss[i].Name < rss[j].Name
		}
		return ta.Before(tb)
	})
}

// revisionOrZero is rs's revision, 0 when it has none that reads.
func revisionOrZero(rs *appsv1.ReplicaSet) int64 {
	v, err := revisionOf(rs)
	if err != nil {
		return 0
	}
	return v
}

// bySize sorts larger first; ties newer first when newerFirst, else older
// first.
func bySize(rss []*appsv1.ReplicaSet, newerFirst bool) {
	sort.SliceStable(rss, func(i, j int) bool {
		a, b := rsReplicas(rss[i]), rsReplicas(rss[j])
		if a != b {
			return a > b
		}
		ta, tb := rss[i].CreationTimestamp.Time, rss[j].CreationTimestamp.Time
		if ta.Equal(tb) {
			return rss[i].Name > rss[j].Name == newerFirst
		}
		return ta.After(tb) == newerFirst
	})
}

func cloneLabels(l map[string]string, key, value string) map[string]string {
	out := maps.Clone(l)
	if out == nil {
		out = map[string]string{}
	}
	out[key] = value
	return out
}
