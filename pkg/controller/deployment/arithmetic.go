package deployment

import (
	"fmt"
	"math"
	"strconv"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/intstr"
)

// replicasOf is the wanted count of d, 1 when unset.
func replicasOf(d *appsv1.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

// rsReplicas is the wanted count of rs, 0 for a nil rs or 1 when unset.
func rsReplicas(rs *appsv1.ReplicaSet) int32 {
	switch {
	case rs == nil:
		return 0
	case rs.Spec.Replicas == nil:
		return 1
	}
	return *rs.Spec.Replicas
}

func isRollingUpdate(d *appsv1.Deployment) bool {
	return d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType
}

// defaultQuarter is the apps/v1 default of both rolling-update bounds.
func defaultQuarter() *intstr.IntOrString {
	v := intstr.FromString("25%")
	return &v
}

// ResolveFenceposts turns maxSurge and maxUnavailable (counts or
// percentages of desired; nil means 25%) into counts: the surge rounds up,
// unavailability down. When both come out zero, one pod may be
// unavailable, so a rollout can always make progress (validation rejects
// both being zero as written).
func ResolveFenceposts(maxSurge, maxUnavailable *intstr.IntOrString, desired int32) (surge, unavailable int32, err error) {
	if maxSurge == nil {
		maxSurge = defaultQuarter()
	}
	if maxUnavailable == nil {
		maxUnavailable = defaultQuarter()
	}
	s, err := intstr.ScaledValue(maxSurge, int(desired), true)
	if err != nil {
		return 0, 0, fmt.Errorf("maxSurge: %w", err)
	}
	u, err := intstr.ScaledValue(maxUnavailable, int(desired), false)
	if err != nil {
		return 0, 0, fmt.Errorf("maxUnavailable: %w", err)
	}
	if s == 0 && u == 0 {
		u = 1
	}
	return int32(s), int32(u), nil
}

// fenceposts resolves d's rolling-update bounds; zero for Recreate.
func fenceposts(d *appsv1.Deployment) (surge, unavailable int32) {
	if !isRollingUpdate(d) {
		return 0, 0
	}
	var ms, mu *intstr.IntOrString
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		ms, mu = ru.MaxSurge, ru.MaxUnavailable
	}
	s, u, err := ResolveFenceposts(ms, mu, replicasOf(d))
	if err != nil {
		// Validation keeps malformed bounds out; act as the defaults would.
		s, u, _ = ResolveFenceposts(nil, nil, replicasOf(d))
	}
	return s, u
}

// MaxSurge is how many pods d may run above its wanted count.
func MaxSurge(d *appsv1.Deployment) int32 {
	s, _ := fenceposts(d)
	return s
}

// MaxUnavailable is how many of d's wanted pods may be unavailable,
// never more than the wanted count.
func MaxUnavailable(d *appsv1.Deployment) int32 {
	if !isRollingUpdate(d) || replicasOf(d) == 0 {
		return 0
	}
	_, u := fenceposts(d)
	return min(u, replicasOf(d))
}

// specReplicas sums the wanted counts of rss.
func specReplicas(rss []*appsv1.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		n += rsReplicas(rs)
	}
	return n
}

// statusSum sums a status field over rss.
func statusSum(rss []*appsv1.ReplicaSet, f func(*appsv1.ReplicaSetStatus) int32) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += f(&rs.Status)
		}
	}
	return n
}

func actualReplicas(s *appsv1.ReplicaSetStatus) int32    { return s.Replicas }
func readyReplicas(s *appsv1.ReplicaSetStatus) int32     { return s.ReadyReplicas }
func availableReplicas(s *appsv1.ReplicaSetStatus) int32 { return s.AvailableReplicas }

// NewRSNewReplicas is the size the new ReplicaSet may grow to now: for a
// rolling update, as far as the surge allows without passing the wanted
// count; for Recreate, the wanted count.
func NewRSNewReplicas(d *appsv1.Deployment, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) int32 {
	if !isRollingUpdate(d) {
		return replicasOf(d)
	}
	current := specReplicas(allRSs)
	maxTotal := replicasOf(d) + MaxSurge(d)
	if current >= maxTotal {
		return rsReplicas(newRS)
	}
	up := min(maxTotal-current, replicasOf(d)-rsReplicas(newRS))
	return rsReplicas(newRS) + up
}

// MaxScaledDown is how many old pods a rolling update may remove now:
// all pods, less the minimum available, less new pods not yet available.
func MaxScaledDown(d *appsv1.Deployment, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) int32 {
	minAvailable := replicasOf(d) - MaxUnavailable(d)
	newUnavailable := rsReplicas(newRS) - availableOf(newRS)
	return specReplicas(allRSs) - minAvailable - newUnavailable
}

func availableOf(rs *appsv1.ReplicaSet) int32 {
	if rs == nil {
		return 0
	}
	return rs.Status.AvailableReplicas
}

// annotatedInt reads an int32 annotation of rs.
func annotatedInt(rs *appsv1.ReplicaSet, key string) (int32, bool) {
	v, ok := rs.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(n), true
}

// replicaSetFraction is how much rs should change when d is scaled:
// its share of the new total in proportion to the total it was sized
// for (the max-replicas annotation, or d's current replicas).
func replicaSetFraction(rs *appsv1.ReplicaSet, d *appsv1.Deployment) int32 {
	if replicasOf(d) == 0 {
		return -rsReplicas(rs)
	}
	total := replicasOf(d) + MaxSurge(d)
	annotated, ok := annotatedInt(rs, MaxReplicasAnnotation)
	if !ok {
		annotated = d.Status.Replicas
	}
	if annotated == 0 {
		return 0
	}
	size := float64(rsReplicas(rs)*total) / float64(annotated)
	return int32(math.Round(size)) - rsReplicas(rs)
}

// proportion is how many of toAdd replicas rs takes, given added were
// already handed out.
func proportion(rs *appsv1.ReplicaSet, d *appsv1.Deployment, toAdd, added int32) int32 {
	if rs == nil || rsReplicas(rs) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	f := replicaSetFraction(rs, d)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(f, allowed)
	}
	return max(f, allowed)
}
