package podcontrol

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
)

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// pod builds a pod fixture.
type podOpt func(*corev1.Pod)

func mkPod(name string, opts ...podOpt) *corev1.Pod {
	p := &corev1.Pod{}
	p.Name, p.Namespace, p.UID = name, "ns", meta.UID("uid-"+name)
	p.Labels = map[string]string{"app": "a"}
	p.CreationTimestamp = meta.NewTime(t0)
	p.Spec.NodeName = "n1"
	p.Status.Phase = corev1.PodRunning
	for _, o := range opts {
		o(p)
	}
	return p
}

func unassigned(p *corev1.Pod)        { p.Spec.NodeName = "" }
func phase(ph corev1.PodPhase) podOpt { return func(p *corev1.Pod) { p.Status.Phase = ph } }
func created(d time.Duration) podOpt {
	return func(p *corev1.Pod) { p.CreationTimestamp = meta.NewTime(t0.Add(d)) }
}
func withLabels(l map[string]string) podOpt { return func(p *corev1.Pod) { p.Labels = l } }
func restarts(n int32) podOpt {
	return func(p *corev1.Pod) {
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "c", RestartCount: n}}
	}
}
func readySince(d time.Duration) podOpt {
	return func(p *corev1.Pod) {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{
			Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: meta.NewTime(t0.Add(d)),
		})
	}
}
func ownedBy(uid meta.UID) podOpt {
	return func(p *corev1.Pod) {
		yes := true
		p.OwnerReferences = []meta.OwnerReference{{Kind: "ReplicaSet", Name: "o", UID: uid, Controller: &yes}}
	}
}
func deleting(p *corev1.Pod) { ts := meta.NewTime(t0); p.DeletionTimestamp = &ts }

func TestSortLeastValuableFirst(t *testing.T) {
	tests := []struct {
		name string
		pods []*corev1.Pod
		want []string
	}{
		{"unassigned first", []*corev1.Pod{mkPod("a"), mkPod("b", unassigned)}, []string{"b", "a"}},
		{"pending before unknown before running", []*corev1.Pod{
			mkPod("run"), mkPod("unk", phase(corev1.PodUnknown)), mkPod("pend", phase(corev1.PodPending)),
		}, []string{"pend", "unk", "run"}},
		{"not ready before ready", []*corev1.Pod{mkPod("r", readySince(0)), mkPod("nr")}, []string{"nr", "r"}},
		{"ready for less time first", []*corev1.Pod{
			mkPod("old", readySince(time.Minute)), mkPod("new", readySince(time.Hour)),
		}, []string{"new", "old"}},
		{"more restarts first", []*corev1.Pod{mkPod("few", restarts(1)), mkPod("many", restarts(5))}, []string{"many", "few"}},
		{"newer first", []*corev1.Pod{mkPod("older", created(0)), mkPod("newer", created(time.Second))}, []string{"newer", "older"}},
		{"assignment beats phase", []*corev1.Pod{
			mkPod("assigned-pending", phase(corev1.PodPending)), mkPod("unassigned-running", unassigned),
		}, []string{"unassigned-running", "assigned-pending"}},
		{"readiness beats restarts", []*corev1.Pod{
			mkPod("ready-restarts", readySince(0), restarts(9)), mkPod("unready"),
		}, []string{"unready", "ready-restarts"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pods := slices.Clone(tc.pods)
			SortLeastValuableFirst(pods)
			var got []string
			for _, p := range pods {
				got = append(got, p.Name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIsPodAvailable(t *testing.T) {
	tests := []struct {
		name     string
		pod      *corev1.Pod
		minReady int32
		now      time.Time
		want     bool
	}{
		{"not ready", mkPod("p"), 0, t0, false},
		{"ready, no min", mkPod("p", readySince(0)), 0, t0, true},
		{"ready too briefly", mkPod("p", readySince(0)), 10, t0.Add(9 * time.Second), false},
		{"ready long enough", mkPod("p", readySince(0)), 10, t0.Add(10 * time.Second), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsPodAvailable(tc.pod, tc.minReady, tc.now); got != tc.want {
				t.Errorf("IsPodAvailable = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSlowStartBatch(t *testing.T) {
	tests := []struct {
		name      string
		count     int
		failAfter int64 // calls after this many fail; -1 never
		wantOK    int
		wantCalls int64
	}{
		{"all succeed", 10, -1, 10, 10},
		{"none asked", 0, -1, 0, 0},
		{"first call fails", 10, 0, 0, 1},
		{"fails in the third batch", 20, 4, 4, 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int64
			var mu sync.Mutex
			ok, err := SlowStartBatch(tc.count, 1, func() error {
				n := calls.Add(1)
				mu.Lock()
				defer mu.Unlock()
				if tc.failAfter >= 0 && n > tc.failAfter {
					return errors.New("boom")
				}
				return nil
			})
			if ok != tc.wantOK || calls.Load() != tc.wantCalls || (err != nil) != (tc.failAfter >= 0) {
				t.Errorf("ok=%d calls=%d err=%v, want ok=%d calls=%d", ok, calls.Load(), err, tc.wantOK, tc.wantCalls)
			}
		})
	}
}

func TestClaim(t *testing.T) {
	owner := Owner{Meta: &meta.ObjectMeta{Name: "o", Namespace: "ns", UID: "owner"}, GVK: meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ReplicaSet"}}
	sel := labels.SelectorFromSet(labels.Set{"app": "a"})
	pods := []*corev1.Pod{
		mkPod("mine"),
		mkPod("mine-unselected", withLabels(map[string]string{"app": "b"})),
		mkPod("orphan"),
		mkPod("orphan-unselected", withLabels(map[string]string{"app": "b"})),
		mkPod("orphan-deleting", deleting),
		mkPod("others"),
	}
	ownedBy("owner")(pods[0])
	ownedBy("owner")(pods[1])
	ownedBy("other")(pods[5])
	tests := []struct {
		name        string
		canAdopt    error
		wantClaimed []string
		wantPatches []string
		wantErr     bool
	}{
		{"adopts and releases", nil, []string{"mine", "orphan"}, []string{
			`mine-unselected {"metadata":{"ownerReferences":[{"$patch":"delete","uid":"owner"}],"uid":"uid-mine-unselected"}}`,
			`orphan {"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"o","uid":"owner","controller":true,"blockOwnerDeletion":true}],"uid":"uid-orphan"}}`,
		}, false},
		{"owner cannot adopt", ErrCannotAdopt, []string{"mine"}, []string{
			`mine-unselected {"metadata":{"ownerReferences":[{"$patch":"delete","uid":"owner"}],"uid":"uid-mine-unselected"}}`,
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var patches []string
			c := &Claimer{Owner: owner, Selector: sel,
				Patch: func(_ context.Context, name string, data []byte) error {
					patches = append(patches, name+" "+string(data))
					return nil
				},
				CanAdopt: func(context.Context) error { return tc.canAdopt },
			}
			got, err := ClaimPods(context.Background(), c, pods)
			var names []string
			for _, p := range got {
				names = append(names, p.Name)
			}
			if diff := cmp.Diff(tc.wantClaimed, names); diff != "" {
				t.Errorf("claimed (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantPatches, patches); diff != "" {
				t.Errorf("patches (-want +got):\n%s", diff)
			}
			if (err != nil) != tc.wantErr {
				t.Errorf("err = %v", err)
			}
		})
	}
}

func TestPodFromTemplate(t *testing.T) {
	owner := Owner{Meta: &meta.ObjectMeta{Name: "web", Namespace: "ns", UID: "u"}, GVK: meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ReplicaSet"}}
	tmpl := &corev1.PodTemplateSpec{}
	if _, err := PodFromTemplate(tmpl, owner); !errors.Is(err, ErrNoLabels) {
		t.Fatalf("no labels: %v", err)
	}
	tmpl.Labels = map[string]string{"app": "web"}
	tmpl.Annotations = map[string]string{"a": "b"}
	tmpl.Spec.Containers = []corev1.Container{{Name: "c", Image: "img"}}
	pod, err := PodFromTemplate(tmpl, owner)
	if err != nil {
		t.Fatal(err)
	}
	pod.Labels["changed"] = "x"
	pod.Spec.Containers[0].Image = "other"
	if tmpl.Labels["changed"] != "" || tmpl.Spec.Containers[0].Image != "img" {
		t.Errorf("the template shares memory with the pod")
	}
	if pod.GenerateName != "web-" || pod.Namespace != "ns" || !IsControlledBy(&pod.ObjectMeta, "u") || !strings.HasPrefix(pod.OwnerReferences[0].APIVersion, "apps/") {
		t.Errorf("pod meta %+v", pod.ObjectMeta)
	}
}
