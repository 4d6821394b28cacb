package deployment

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func ios(s string) *intstr.IntOrString { v := intstr.Parse(s); return &v }

// mkDeployment is a RollingUpdate Deployment of n with the given bounds.
func mkDeployment(n int32, surge, unavailable string) *appsv1.Deployment {
	d := &appsv1.Deployment{}
	d.Name, d.Namespace = "d", "ns"
	d.Spec.Replicas = &n
	d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: ios(surge), MaxUnavailable: ios(unavailable)}}
	return d
}

// mkRS is a ReplicaSet of n wanted and available pods, created at
// t0+age.
func mkRS(name string, n, available int32, age time.Duration, annotations map[string]string) *appsv1.ReplicaSet {
	rs := &appsv1.ReplicaSet{}
	rs.Name = name
	rs.CreationTimestamp = meta.NewTime(t0.Add(age))
	rs.Spec.Replicas = &n
	rs.Status.Replicas, rs.Status.AvailableReplicas = n, available
	rs.Annotations = annotations
	return rs
}

func TestResolveFenceposts(t *testing.T) {
	tests := []struct {
		surge, unavailable string
		desired            int32
		wantS, wantU       int32
	}{
		{"25%", "25%", 4, 1, 1},
		{"25%", "25%", 10, 3, 2},  // surge rounds up, unavailable down
		{"25%", "25%", 1, 1, 0},   // 0.25 -> 1 surge, 0 unavailable
		{"0", "10%", 3, 0, 1},     // both zero after rounding: one may be unavailable
		{"50%", "0", 3, 2, 0},     // 1.5 rounds up
		{"3", "2", 10, 3, 2},      // counts as they are
		{"100%", "100%", 7, 7, 7}, // whole
		{"0%", "1", 5, 0, 1},      // zero surge
		{"33%", "33%", 100, 33, 33},
	}
	for _, tc := range tests {
		s, u, err := ResolveFenceposts(ios(tc.surge), ios(tc.unavailable), tc.desired)
		if err != nil || s != tc.wantS || u != tc.wantU {
			t.Errorf("ResolveFenceposts(%s, %s, %d) = %d, %d, %v; want %d, %d", tc.surge, tc.unavailable, tc.desired, s, u, err, tc.wantS, tc.wantU)
		}
	}
	if _, _, err := ResolveFenceposts(ios("x%"), ios("1"), 3); err == nil {
		t.Errorf("a malformed percentage was accepted")
	}
}

// TestRollingStep: for a rolling update of replicas with maxSurge and
// maxUnavailable, where the old ReplicaSet has old pods (oldAvailable of
// them available) and the new one newRS (newAvailable available), the new
// ReplicaSet may grow to wantNew and the old ones may lose wantDown.
func TestRollingStep(t *testing.T) {
	tests := []struct {
		name                 string
		replicas             int32
		surge, unavailable   string
		old, oldAvailable    int32
		newRS, newAvailable  int32
		wantNew, wantMaxDown int32
	}{
		{"start: surge one, one old may go", 4, "1", "1", 4, 4, 0, 0, 1, 1},
		{"start, percentages", 10, "25%", "25%", 10, 10, 0, 0, 3, 2},
		{"at surge limit, new not ready: only unavailability", 4, "1", "1", 4, 4, 1, 0, 1, 1},
		{"unavailable budget used by new pods", 4, "1", "1", 3, 3, 2, 0, 2, 0},
		{"new ready: old may shrink by two", 4, "1", "1", 4, 4, 1, 1, 1, 2},
		{"after scale down: new grows to the cap", 4, "1", "1", 2, 2, 1, 1, 3, 0},
		{"no surge: only removals", 4, "0", "1", 4, 4, 0, 0, 0, 1},
		{"new never grows past replicas", 4, "2", "0", 1, 1, 3, 3, 4, 0},
		{"unavailable old pods can go first", 4, "1", "0", 4, 2, 1, 0, 1, 0},
		{"done", 3, "1", "1", 0, 0, 3, 3, 3, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := mkDeployment(tc.replicas, tc.surge, tc.unavailable)
			oldRS := mkRS("old", tc.old, tc.oldAvailable, 0, nil)
			newRS := mkRS("new", tc.newRS, tc.newAvailable, time.Minute, nil)
			all := []*appsv1.ReplicaSet{oldRS, newRS}
			if got := NewRSNewReplicas(d, all, newRS); got != tc.wantNew {
				t.Errorf("NewRSNewReplicas = %d, want %d", got, tc.wantNew)
			}
			if got := MaxScaledDown(d, all, newRS); got != tc.wantMaxDown {
				t.Errorf("MaxScaledDown = %d, want %d", got, tc.wantMaxDown)
			}
		})
	}
}

func TestRecreateNewReplicas(t *testing.T) {
	d := mkDeployment(5, "1", "1")
	d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	if got := NewRSNewReplicas(d, nil, mkRS("new", 0, 0, 0, nil)); got != 5 {
		t.Errorf("Recreate new replicas %d, want 5", got)
	}
	if MaxSurge(d) != 0 || MaxUnavailable(d) != 0 {
		t.Errorf("Recreate has surge %d unavailable %d", MaxSurge(d), MaxUnavailable(d))
	}
}

func TestProportionalSizes(t *testing.T) {
	ann := func(desired, maxR string) map[string]string {
		return map[string]string{DesiredReplicasAnnotation: desired, MaxReplicasAnnotation: maxR}
	}
	tests := []struct {
		name     string
		replicas int32
		surge    string
		rss      []*appsv1.ReplicaSet
		want     map[string]int32
	}{
		{"scale up 10 -> 20 mid-rollout", 20, "3", []*appsv1.ReplicaSet{
			mkRS("old", 8, 8, 0, ann("10", "13")), mkRS("new", 5, 0, time.Minute, ann("10", "13")),
		}, map[string]int32{"old": 14, "new": 9}},
		{"scale down 20 -> 10 mid-rollout", 10, "3", []*appsv1.ReplicaSet{
			mkRS("old", 14, 14, 0, ann("20", "23")), mkRS("new", 9, 0, time.Minute, ann("20", "23")),
		}, map[string]int32{"old": 8, "new": 5}},
		{"scale to zero", 0, "3", []*appsv1.ReplicaSet{
			mkRS("old", 8, 8, 0, ann("10", "13")), mkRS("new", 5, 0, time.Minute, ann("10", "13")),
		}, map[string]int32{"old": 0, "new": 0}},
		{"leftover goes to the largest", 11, "0", []*appsv1.ReplicaSet{
			mkRS("a", 5, 5, 0, ann("10", "10")), mkRS("b", 5, 5, time.Minute, ann("10", "10")),
		}, map[string]int32{"a": 5, "b": 6}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := mkDeployment(tc.replicas, tc.surge, "1")
			if diff := cmp.Diff(tc.want, proportionalSizes(d, tc.rss)); diff != "" {
				t.Errorf("sizes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestComputeHash(t *testing.T) {
	tmpl := &corev1.PodTemplateSpec{}
	tmpl.Labels = map[string]string{"app": "web"}
	tmpl.Spec.Containers = []corev1.Container{{Name: "c", Image: "img:1"}}
	h := ComputeHash(tmpl, nil)
	if h != ComputeHash(tmpl, nil) {
		t.Fatalf("the hash is not stable")
	}
	one := int32(1)
	other := &corev1.PodTemplateSpec{}
	other.Labels = map[string]string{"app": "web"}
	other.Annotations = map[string]string{}
	other.Spec.Containers = []corev1.Container{{Name: "c", Image: "img:1"}}
	if ComputeHash(other, nil) != h {
		t.Errorf("an empty map changed the hash")
	}
	if ComputeHash(tmpl, &one) == h {
		t.Errorf("the collision count did not change the hash")
	}
	other.Spec.Containers[0].Image = "img:2"
	if ComputeHash(other, nil) == h {
		t.Errorf("a new image kept the hash")
	}
	if h == "" || strings.Trim(h, safeAlphabet) != "" {
		t.Errorf("hash %q uses characters outside %q", h, safeAlphabet)
	}
	if got := safeEncode("0123"); got != "4567" {
		t.Errorf("safeEncode(0123) = %q", got)
	}
}

func TestEqualIgnoreHash(t *testing.T) {
	a := &corev1.PodTemplateSpec{}
	a.Labels = map[string]string{"app": "web", UniqueLabelKey: "abc"}
	a.Spec.Containers = []corev1.Container{{Name: "c", Image: "img:1"}}
	b := &corev1.PodTemplateSpec{}
	b.Labels = map[string]string{"app": "web"}
	b.Spec.Containers = []corev1.Container{{Name: "c", Image: "img:1"}}
	if !EqualIgnoreHash(a, b) {
		t.Errorf("templates differing in the hash label only are not equal")
	}
	if a.Labels[UniqueLabelKey] != "abc" {
		t.Errorf("EqualIgnoreHash changed its argument")
	}
	b.Spec.Containers[0].Image = "img:2"
	if EqualIgnoreHash(a, b) {
		t.Errorf("templates with different images are equal")
	}
}
