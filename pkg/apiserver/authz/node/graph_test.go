package node

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"
)

// podBuilder makes pods for the tables.
type podBuilder struct{ p *corev1.Pod }

func makePod(ns, name string) podBuilder {
	p := &corev1.Pod{}
	p.Namespace, p.Name = ns, name
	return podBuilder{p}
}

func (b podBuilder) node(n string) podBuilder { b.p.Spec.NodeName = n; return b }

func (b podBuilder) sa(n string) podBuilder { b.p.Spec.ServiceAccountName = n; return b }

func (b podBuilder) volume(v corev1.VolumeSource) podBuilder {
	b.p.Spec.Volumes = append(b.p.Spec.Volumes, corev1.Volume{Name: "v", VolumeSource: v})
	return b
}

func (b podBuilder) container(c corev1.Container) podBuilder {
	b.p.Spec.Containers = append(b.p.Spec.Containers, c)
	return b
}

func (b podBuilder) pullSecret(n string) podBuilder {
	b.p.Spec.ImagePullSecrets = append(b.p.Spec.ImagePullSecrets, corev1.LocalObjectReference{Name: n})
	return b
}

func (b podBuilder) obj() *corev1.Pod { return b.p }

func local(n string) corev1.LocalObjectReference { return corev1.LocalObjectReference{Name: n} }

// everything references one object of each kind in every way a pod can.
func everything(ns, name, node string) *corev1.Pod {
	b := makePod(ns, name).node(node).sa("runner").pullSecret("pull").
		volume(corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "vol-secret"}}).
		volume(corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: local("vol-cm")}}).
		volume(corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}).
		volume(corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
			{Secret: &corev1.SecretProjection{LocalObjectReference: local("proj-secret")}},
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: local("proj-cm")}},
		}}}).
		volume(corev1.VolumeSource{CSI: &corev1.CSIVolumeSource{Driver: "d", NodePublishSecretRef: &corev1.LocalObjectReference{Name: "csi-secret"}}}).
		container(corev1.Container{Name: "c",
			EnvFrom: []corev1.EnvFromSource{
				{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: local("envfrom-cm")}},
				{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: local("envfrom-secret")}},
			},
			Env: []corev1.EnvVar{
				{Name: "A", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: local("env-cm"), Key: "k"}}},
				{Name: "B", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: local("env-secret"), Key: "k"}}},
				{Name: "C", Value: "plain"},
			}})
	init := corev1.Container{Name: "i", EnvFrom: []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: local("init-secret")}}}}
	b.p.Spec.InitContainers = []corev1.Container{init}
	eph := corev1.EphemeralContainer{}
	eph.Name = "debug"
	eph.EnvFrom = []corev1.EnvFromSource{{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: local("debug-cm")}}}
	b.p.Spec.EphemeralContainers = []corev1.EphemeralContainer{eph}
	return b.obj()
}

func TestReferences(t *testing.T) {
	g := NewGraph()
	g.PodUpserted(everything("ns", "web", "n1"))
	want := []ref{
		{Pod, "ns", "web"}, {ServiceAccount, "ns", "runner"}, {Secret, "ns", "pull"},
		{Secret, "ns", "vol-secret"}, {ConfigMap, "ns", "vol-cm"}, {PersistentVolumeClaim, "ns", "data"},
		{Secret, "ns", "proj-secret"}, {ConfigMap, "ns", "proj-cm"}, {Secret, "ns", "csi-secret"},
		{ConfigMap, "ns", "envfrom-cm"}, {Secret, "ns", "envfrom-secret"}, {ConfigMap, "ns", "env-cm"},
		{Secret, "ns", "env-secret"}, {Secret, "ns", "init-secret"}, {ConfigMap, "ns", "debug-cm"},
	}
	for _, r := range want {
		if !g.Reaches("n1", r.kind, r.namespace, r.name) {
			t.Errorf("n1 does not reach %v", r)
		}
		if g.Reaches("n2", r.kind, r.namespace, r.name) {
			t.Errorf("n2 reaches %v", r)
		}
		if g.Reaches("n1", r.kind, "other", r.name) {
			t.Errorf("n1 reaches %v in another namespace", r)
		}
	}
	if got := len(g.reach["n1"]); got != len(want) {
		t.Errorf("n1 reaches %d objects, want %d: %v", got, len(want), g.reach["n1"])
	}
}

// TestGraphLifecycle: grants follow pods as they are created, bound,
// changed, moved and deleted.
func TestGraphLifecycle(t *testing.T) {
	withSecret := func(name, node, secret string) *corev1.Pod {
		return makePod("ns", name).node(node).volume(corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: secret}}).obj()
	}
	type check struct {
		node   string
		kind   Kind
		name   string
		reachs bool
	}
	src := newTestSource()
	g := NewGraph()
	src.AddPodHandler(g)
	steps := []struct {
		name   string
		do     func()
		checks []check
	}{
		{"pending pod grants nothing", func() {
			src.upsert(makePod("ns", "a").volume(corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "s1"}}).obj())
		},
			[]check{{"n1", Pod, "a", false}, {"n1", Secret, "s1", false}}},
		{"binding grants the pod and its secret", func() { src.upsert(withSecret("a", "n1", "s1")) },
			[]check{{"n1", Pod, "a", true}, {"n1", Secret, "s1", true}, {"n2", Secret, "s1", false}}},
		{"a second pod shares the secret", func() { src.upsert(withSecret("b", "n1", "s1")) },
			[]check{{"n1", Pod, "b", true}, {"n1", Secret, "s1", true}}},
		{"deleting one pod keeps the shared secret", func() { src.delete("ns", "a") },
			[]check{{"n1", Pod, "a", false}, {"n1", Secret, "s1", true}}},
		{"an update that drops the reference revokes it", func() { src.upsert(withSecret("b", "n1", "s2")) },
			[]check{{"n1", Secret, "s1", false}, {"n1", Secret, "s2", true}}},
		{"a pod on another node grants that node", func() { src.upsert(withSecret("c", "n2", "s2")) },
			[]check{{"n2", Secret, "s2", true}, {"n2", Pod, "c", true}, {"n1", Pod, "c", false}}},
		{"deleting the last pod revokes everything", func() { src.delete("ns", "b") },
			[]check{{"n1", Pod, "b", false}, {"n1", Secret, "s2", false}, {"n2", Secret, "s2", true}}},
		{"deleting an unknown pod is harmless", func() { src.delete("ns", "nope") },
			[]check{{"n2", Secret, "s2", true}}},
		{"a late handler sees existing pods", func() { g = NewGraph(); src.AddPodHandler(g) },
			[]check{{"n2", Secret, "s2", true}, {"n2", Pod, "c", true}}},
		{"a relist drops pods deleted while not watching", func() { src.relist(withSecret("d", "n1", "s3")) },
			[]check{{"n2", Secret, "s2", false}, {"n2", Pod, "c", false}, {"n1", Secret, "s3", true}}},
		{"and keeps following changes", func() { src.delete("ns", "d"); src.upsert(withSecret("c", "n2", "s2")) },
			[]check{{"n1", Secret, "s3", false}, {"n2", Secret, "s2", true}}},
	}
	for _, s := range steps {
		s.do()
		for _, c := range s.checks {
			if got := g.Reaches(c.node, c.kind, "ns", c.name); got != c.reachs {
				t.Errorf("%s: %s reaches %s %s = %v, want %v", s.name, c.node, c.kind, c.name, got, c.reachs)
			}
		}
	}
	if len(g.reach["n1"]) != 0 || len(g.pods) != 1 {
		t.Errorf("left over: reach %v pods %v", g.reach, g.pods)
	}
}
