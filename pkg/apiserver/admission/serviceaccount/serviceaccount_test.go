package serviceaccount

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
)

// accounts is a fixed set of service accounts by namespace/name; err, when
// set, is returned for every read.
type accounts struct {
	byKey map[string]*corev1.ServiceAccount
	err   error
}

func (f accounts) GetShared(_ context.Context, ns, name string) (meta.Object, error) {
	if f.err != nil {
		return nil, f.err
	}
	if sa, ok := f.byKey[ns+"/"+name]; ok {
		return sa, nil
	}
	return nil, apierrors.NewNotFound(meta.GroupResource{Resource: "serviceaccounts"}, name)
}

func account(ns, name string, automount *bool, pullSecrets ...string) *corev1.ServiceAccount {
	sa := &corev1.ServiceAccount{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: name}, AutomountServiceAccountToken: automount}
	for _, s := range pullSecrets {
		sa.ImagePullSecrets = append(sa.ImagePullSecrets, corev1.LocalObjectReference{Name: s})
	}
	return sa
}

func ptr[T any](v T) *T { return &v }

// podBuilder makes test pods.
type podBuilder struct{ p corev1.Pod }

func pod() *podBuilder {
	return &podBuilder{corev1.Pod{
		ObjectMeta: meta.ObjectMeta{Namespace: "ns", Name: "p"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}},
	}}
}

func (b *podBuilder) sa(name string) *podBuilder { b.p.Spec.ServiceAccountName = name; return b }
func (b *podBuilder) automount(v bool) *podBuilder {
	b.p.Spec.AutomountServiceAccountToken = &v
	return b
}
func (b *podBuilder) init(names ...string) *podBuilder {
	for _, n := range names {
		b.p.Spec.InitContainers = append(b.p.Spec.InitContainers, corev1.Container{Name: n, Image: "i"})
	}
	return b
}
func (b *podBuilder) container(c corev1.Container) *podBuilder {
	b.p.Spec.Containers = append(b.p.Spec.Containers, c)
	return b
}
func (b *podBuilder) volume(v corev1.Volume) *podBuilder {
	b.p.Spec.Volumes = append(b.p.Spec.Volumes, v)
	return b
}
func (b *podBuilder) mount(container int, m corev1.VolumeMount) *podBuilder {
	c := &b.p.Spec.Containers[container]
	c.VolumeMounts = append(c.VolumeMounts, m)
	return b
}
func (b *podBuilder) initMount(container int, m corev1.VolumeMount) *podBuilder {
	c := &b.p.Spec.InitContainers[container]
	c.VolumeMounts = append(c.VolumeMounts, m)
	return b
}
func (b *podBuilder) pullSecrets(names ...string) *podBuilder {
	for _, n := range names {
		b.p.Spec.ImagePullSecrets = append(b.p.Spec.ImagePullSecrets, corev1.LocalObjectReference{Name: n})
	}
	return b
}
func (b *podBuilder) mirror() *podBuilder {
	b.p.Annotations = map[string]string{corev1.MirrorPodAnnotationKey: "x"}
	return b
}
func (b *podBuilder) build() *corev1.Pod { p := b.p; return &p }

const testVolume = VolumePrefix + "abcde"

var tokenMount = corev1.VolumeMount{Name: testVolume, ReadOnly: true, MountPath: MountPath}

func tokenVolume(name string) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{Projected: TokenVolumeSource()}}
}

func TestAdmit(t *testing.T) {
	defaults := accounts{byKey: map[string]*corev1.ServiceAccount{
		"ns/default":   account("ns", "default", nil),
		"ns/builder":   account("ns", "builder", nil, "registry"),
		"ns/nomount":   account("ns", "nomount", ptr(false)),
		"other/robots": account("other", "robots", nil),
	}}
	otherMount := corev1.VolumeMount{Name: "mine", MountPath: MountPath}
	tests := []struct {
		name     string
		accounts accounts
		pod      *corev1.Pod
		want     *corev1.Pod
		// wantErr is the whole message of the 403 refusing the pod.
		wantErr string
	}{
		{
			name: "default account, volume mounted in every container",
			pod:  pod().init("i1").container(corev1.Container{Name: "c2", Image: "i"}).build(),
			want: pod().sa("default").init("i1").container(corev1.Container{Name: "c2", Image: "i"}).
				initMount(0, tokenMount).mount(0, tokenMount).mount(1, tokenMount).volume(tokenVolume(testVolume)).build(),
		},
		{
			name: "named account; its pull secrets copied",
			pod:  pod().sa("builder").build(),
			want: pod().sa("builder").mount(0, tokenMount).volume(tokenVolume(testVolume)).pullSecrets("registry").build(),
		},
		{
			name: "the pod's own pull secrets are kept",
			pod:  pod().sa("builder").pullSecrets("mine").build(),
			want: pod().sa("builder").mount(0, tokenMount).volume(tokenVolume(testVolume)).pullSecrets("mine").build(),
		},
		{
			name:    "missing account",
			pod:     pod().sa("ghost").build(),
			wantErr: `pods "p" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found`,
		},
		{
			name:     "namespace without a default account",
			accounts: accounts{byKey: map[string]*corev1.ServiceAccount{}},
			pod:      pod().build(),
			wantErr:  `pods "p" is forbidden: error looking up service account ns/default: serviceaccount "default" not found`,
		},
		{
			name:     "lookup failure",
			accounts: accounts{err: errors.New("etcd is down")},
			pod:      pod().build(),
			wantErr:  `pods "p" is forbidden: error looking up service account ns/default: etcd is down`,
		},
		{
			name: "pod turns automount off",
			pod:  pod().automount(false).build(),
			want: pod().sa("default").automount(false).build(),
		},
		{
			name: "account turns automount off",
			pod:  pod().sa("nomount").build(),
			want: pod().sa("nomount").build(),
		},
		{
			name: "pod's choice wins over the account's",
			pod:  pod().sa("nomount").automount(true).build(),
			want: pod().sa("nomount").automount(true).mount(0, tokenMount).volume(tokenVolume(testVolume)).build(),
		},
		{
			name: "a container mounting the path already is left alone",
			pod:  pod().mount(0, otherMount).container(corev1.Container{Name: "c2", Image: "i"}).build(),
			want: pod().sa("default").mount(0, otherMount).container(corev1.Container{Name: "c2", Image: "i"}).
				mount(1, tokenMount).volume(tokenVolume(testVolume)).build(),
		},
		{
			name: "no volume when every container mounts the path",
			pod:  pod().mount(0, otherMount).build(),
			want: pod().sa("default").mount(0, otherMount).build(),
		},
		{
			name: "an existing token volume is reused",
			pod:  pod().volume(tokenVolume(VolumePrefix + "zzzzz")).build(),
			want: pod().sa("default").volume(tokenVolume(VolumePrefix+"zzzzz")).
				mount(0, corev1.VolumeMount{Name: VolumePrefix + "zzzzz", ReadOnly: true, MountPath: MountPath}).build(),
		},
		{
			name: "mirror pod is not changed",
			pod:  pod().mirror().build(),
			want: pod().mirror().build(),
		},
		{
			name:    "mirror pod may not use a service account",
			pod:     pod().mirror().sa("default").build(),
			wantErr: `pods "p" is forbidden: a mirror pod may not reference service accounts`,
		},
		{
			name: "mirror pod may not use secrets",
			pod: pod().mirror().volume(corev1.Volume{Name: "s", VolumeSource: corev1.VolumeSource{
				Secret: &corev1.SecretVolumeSource{SecretName: "s"}}}).build(),
			wantErr: `pods "p" is forbidden: a mirror pod may not reference secrets`,
		},
		{
			name:    "mirror pod may not use tokens",
			pod:     pod().mirror().volume(tokenVolume("t")).build(),
			wantErr: `pods "p" is forbidden: a mirror pod may not use ServiceAccountToken volume projections`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acc := defaults
			if tt.accounts.byKey != nil || tt.accounts.err != nil {
				acc = tt.accounts
			}
			p := New(acc)
			p.suffix = func() string { return "abcde" }
			err := run(p, attrs(tt.pod, ""))
			if tt.wantErr != "" {
				if !apierrors.IsForbidden(err) || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want 403 %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("error = %v", err)
			}
			if diff := cmp.Diff(tt.want, tt.pod); diff != "" {
				t.Errorf("pod (-want +got):\n%s", diff)
			}
		})
	}
}

// run admits and validates as the chain does.
func run(p *Plugin, a *admission.Attributes) error {
	chain := admission.NewChain([]admission.Named{{Name: Name, Plugin: p}}, nil)
	if err := chain.Admit(context.Background(), a); err != nil {
		return err
	}
	return chain.Validate(context.Background(), a)
}

func attrs(obj meta.Object, sub string) *admission.Attributes {
	return &admission.Attributes{
		Operation:   admission.Create,
		Resource:    meta.GroupVersionResource{Version: "v1", Resource: "pods"},
		Subresource: sub,
		Namespace:   "ns",
		Name:        "p",
		Object:      obj,
	}
}

func TestIgnores(t *testing.T) {
	p := New(accounts{byKey: map[string]*corev1.ServiceAccount{}})
	tests := []struct {
		name string
		a    *admission.Attributes
	}{
		{"pod subresource", attrs(pod().build(), "status")},
		{"binding", attrs(&corev1.Binding{ObjectMeta: meta.ObjectMeta{Name: "p"}}, "binding")},
		{"other resource", func() *admission.Attributes {
			a := attrs(pod().build(), "")
			a.Resource.Resource = "podtemplates"
			return a
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := run(p, tt.a); err != nil {
				t.Fatalf("error = %v, want the plugin to let it pass", err)
			}
		})
	}
	for _, op := range []admission.Operation{admission.Update, admission.Delete, admission.Connect} {
		if p.Handles(op) {
			t.Errorf("Handles(%s) = true, want only CREATE", op)
		}
	}
}

func TestVolumeNames(t *testing.T) {
	seen := map[string]bool{}
	for range 20 {
		s := randomSuffix()
		if len(s) != 5 {
			t.Fatalf("suffix %q: want 5 characters", s)
		}
		for _, c := range s {
			if !strings.ContainsRune(suffixAlphabet, c) {
				t.Fatalf("suffix %q has %q, outside the alphabet", s, c)
			}
		}
		seen[s] = true
	}
	if len(seen) < 2 {
		t.Errorf("20 suffixes, %d distinct: not random", len(seen))
	}
}

// TestTokenVolumeSource pins the volume's wire form: upstream's sources,
// with this project's config map name and the defaults written out.
func TestTokenVolumeSource(t *testing.T) {
	got, err := json.Marshal(TokenVolumeSource())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"sources":[` +
		`{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},` +
		`{"configMap":{"name":"platform-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},` +
		`{"downwardAPI":{"items":[{"path":"namespace","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}` +
		`],"defaultMode":420}`
	if string(got) != want {
		t.Errorf("token volume source:\n got %s\nwant %s", got, want)
	}
}
