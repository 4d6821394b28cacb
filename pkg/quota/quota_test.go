package quota

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
)

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

// strs renders a list for comparison, so 1000m and 1 compare equal.
func strs(l corev1.ResourceList) map[string]string {
	out := map[string]string{}
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

func container(name string, req, lim corev1.ResourceList) corev1.Container {
	return corev1.Container{Name: name, Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}
}

func pod(f func(p *corev1.Pod), cs ...corev1.Container) *corev1.Pod {
	p := &corev1.Pod{Spec: corev1.PodSpec{Containers: cs}}
	if f != nil {
		f(p)
	}
	return p
}

var (
	podsGR = meta.GroupResource{Resource: "pods"}
	now    = time.Unix(1000, 0)
)

func TestUsage(t *testing.T) {
	ts := meta.NewTime(now.Add(-time.Minute))
	grace := int64(30)
	no := false
	cases := []struct {
		name string
		gr   meta.GroupResource
		obj  meta.Object
		want corev1.ResourceList
	}{
		{"pod with requests and limits", podsGR, pod(nil,
			container("a", rl("cpu", "250m", "memory", "64Mi"), rl("cpu", "500m", "memory", "128Mi")),
			container("b", rl("cpu", "250m"), nil)),
			rl("count/pods", "1", "pods", "1", "cpu", "500m", "requests.cpu", "500m", "memory", "64Mi", "requests.memory", "64Mi",
				"limits.cpu", "500m", "limits.memory", "128Mi")},
		{"init container larger than the sum", podsGR, pod(func(p *corev1.Pod) {
			p.Spec.InitContainers = []corev1.Container{container("init", rl("cpu", "2"), nil)}
		}, container("a", rl("cpu", "1"), nil)),
			rl("count/pods", "1", "pods", "1", "cpu", "2", "requests.cpu", "2")},
		{"overhead", podsGR, pod(func(p *corev1.Pod) { p.Spec.Overhead = rl("cpu", "100m", "memory", "10Mi") },
			container("a", rl("cpu", "1"), rl("cpu", "1"))),
			rl("count/pods", "1", "pods", "1", "cpu", "1100m", "requests.cpu", "1100m", "memory", "10Mi", "requests.memory", "10Mi", "limits.cpu", "1100m")},
		{"extended and huge pages", podsGR, pod(nil, container("a", rl("example.com/gpu", "2", "hugepages-2Mi", "4Mi"), nil)),
			rl("count/pods", "1", "pods", "1", "requests.example.com/gpu", "2", "requests.hugepages-2Mi", "4Mi")},
		{"succeeded pod: only count/pods", podsGR, pod(func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded },
			container("a", rl("cpu", "1"), nil)), rl("count/pods", "1")},
		{"deleted pod past its grace: only count/pods", podsGR, pod(func(p *corev1.Pod) {
			p.DeletionTimestamp, p.DeletionGracePeriodSeconds = &ts, &grace
		}), rl("count/pods", "1")},
		{"service", meta.GroupResource{Resource: "services"}, &corev1.Service{},
			rl("count/services", "1", "services", "1")},
		{"node port service", meta.GroupResource{Resource: "services"},
			&corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeNodePort, Ports: []corev1.ServicePort{{Port: 80}, {Port: 443}}}},
			rl("count/services", "1", "services", "1", "services.nodeports", "2")},
		{"load balancer without node ports", meta.GroupResource{Resource: "services"},
			&corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, AllocateLoadBalancerNodePorts: &no,
				Ports: []corev1.ServicePort{{Port: 80}, {Port: 443, NodePort: 30443}}}},
			rl("count/services", "1", "services", "1", "services.nodeports", "1", "services.loadbalancers", "1")},
		{"config map", meta.GroupResource{Resource: "configmaps"}, &corev1.ConfigMap{}, rl("count/configmaps", "1", "configmaps", "1")},
		{"quota", meta.GroupResource{Resource: "resourcequotas"}, &corev1.ResourceQuota{}, rl("count/resourcequotas", "1", "resourcequotas", "1")},
		{"deployment", meta.GroupResource{Group: "apps", Resource: "deployments"}, &corev1.ConfigMap{}, rl("count/deployments.apps", "1")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(strs(c.want), strs(Usage(c.gr, c.obj, now))); diff != "" {
				t.Errorf("usage (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMatching(t *testing.T) {
	hard := rl("pods", "1", "requests.cpu", "1", "limits.memory", "1", "services", "1", "count/pods", "1", "count/deployments.apps", "1", "configmaps", "1")
	want := []corev1.ResourceName{"count/pods", "limits.memory", "pods", "requests.cpu"}
	if diff := cmp.Diff(want, Matching(podsGR, hard)); diff != "" {
		t.Errorf("pods (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]corev1.ResourceName{"count/deployments.apps"}, Matching(meta.GroupResource{Group: "apps", Resource: "deployments"}, hard)); diff != "" {
		t.Errorf("deployments (-want +got):\n%s", diff)
	}
}

func TestMatches(t *testing.T) {
	deadline := int64(60)
	burstable := pod(nil, container("a", rl("cpu", "1"), nil))
	bestEffort := pod(nil, container("a", nil, nil))
	terminating := pod(func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = &deadline }, container("a", nil, nil))
	high := pod(func(p *corev1.Pod) { p.Spec.PriorityClassName = "high" })
	scoped := func(scopes ...corev1.ResourceQuotaScope) *corev1.ResourceQuota {
		return &corev1.ResourceQuota{Spec: corev1.ResourceQuotaSpec{Scopes: scopes}}
	}
	priority := func(op corev1.ScopeSelectorOperator, v ...string) *corev1.ResourceQuota {
		return &corev1.ResourceQuota{Spec: corev1.ResourceQuotaSpec{ScopeSelector: &corev1.ScopeSelector{
			MatchExpressions: []corev1.ScopedResourceSelectorRequirement{{ScopeName: "PriorityClass", Operator: op, Values: v}}}}}
	}
	cases := []struct {
		name string
		q    *corev1.ResourceQuota
		gr   meta.GroupResource
		obj  meta.Object
		want bool
	}{
		{"no scope covers anything", scoped(), meta.GroupResource{Resource: "secrets"}, &corev1.Secret{}, true},
		{"scoped quota skips other kinds", scoped("NotTerminating"), meta.GroupResource{Resource: "secrets"}, &corev1.Secret{}, false},
		{"best effort", scoped("BestEffort"), podsGR, bestEffort, true},
		{"best effort skips burstable", scoped("BestEffort"), podsGR, burstable, false},
		{"not best effort", scoped("NotBestEffort"), podsGR, burstable, true},
		{"terminating", scoped("Terminating"), podsGR, terminating, true},
		{"not terminating skips terminating", scoped("NotTerminating"), podsGR, terminating, false},
		{"both scopes must match", scoped("NotTerminating", "NotBestEffort"), podsGR, bestEffort, false},
		{"priority in", priority("In", "high"), podsGR, high, true},
		{"priority in: other class", priority("In", "low"), podsGR, high, false},
		{"priority not in", priority("NotIn", "low"), podsGR, high, true},
		{"priority exists: none", priority("Exists"), podsGR, bestEffort, false},
		{"priority does not exist", priority("DoesNotExist"), podsGR, bestEffort, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Matches(c.q, c.gr, c.obj); got != c.want {
				t.Errorf("Matches = %v, want %v", got, c.want)
			}
		})
	}
}

func TestPodConstraints(t *testing.T) {
	cases := []struct {
		name     string
		pod      *corev1.Pod
		required []corev1.ResourceName
		want     string
	}{
		{"nothing required", pod(nil, container("a", nil, nil)), []corev1.ResourceName{"pods"}, ""},
		{"all specified", pod(nil, container("a", rl("cpu", "1"), rl("memory", "1Gi"))), []corev1.ResourceName{"requests.cpu", "limits.memory"}, ""},
		{"missing", pod(func(p *corev1.Pod) { p.Spec.InitContainers = []corev1.Container{container("init", nil, nil)} },
			container("app", rl("cpu", "1"), nil)),
			[]corev1.ResourceName{"requests.cpu", "limits.memory", "pods"},
			"must specify limits.memory for: app,init; requests.cpu for: init"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := PodConstraints(c.pod, c.required)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestLists(t *testing.T) {
	if got := Format(Add(rl("pods", "1", "cpu", "500m"), rl("cpu", "500m"))); got != "cpu=1,pods=1" {
		t.Errorf("Add/Format = %q", got)
	}
	if got := strs(SubtractNonNegative(rl("cpu", "1", "pods", "1"), rl("cpu", "2"))); got["cpu"] != "0" || got["pods"] != "1" {
		t.Errorf("SubtractNonNegative = %v", got)
	}
	ok, over := LessThanOrEqual(rl("pods", "3", "cpu", "1", "memory", "1Gi"), rl("pods", "2", "cpu", "1"))
	if ok || len(over) != 1 || over[0] != "pods" {
		t.Errorf("LessThanOrEqual = %v %v", ok, over)
	}
	if !Equal(rl("cpu", "1"), rl("cpu", "1000m")) || Equal(rl("cpu", "1"), rl("cpu", "1", "pods", "0")) {
		t.Error("Equal")
	}
	if got := Format(Mask(rl("pods", "1", "cpu", "1"), []corev1.ResourceName{"pods", "memory"})); got != "pods=1" {
		t.Errorf("Mask = %q", got)
	}
}
