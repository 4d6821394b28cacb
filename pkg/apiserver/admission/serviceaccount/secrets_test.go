package serviceaccount

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

func TestMountableSecrets(t *testing.T) {
	strict := &corev1.ServiceAccount{
		ObjectMeta:       meta.ObjectMeta{Namespace: "ns", Name: "strict", Annotations: map[string]string{EnforceMountableSecretsAnnotation: "true"}},
		Secrets:          []corev1.ObjectReference{{Name: "listed"}},
		ImagePullSecrets: []corev1.LocalObjectReference{{Name: "registry"}},
	}
	lax := &corev1.ServiceAccount{ObjectMeta: meta.ObjectMeta{Namespace: "ns", Name: "lax", Annotations: map[string]string{EnforceMountableSecretsAnnotation: "false"}}}
	acc := accounts{byKey: map[string]*corev1.ServiceAccount{"ns/strict": strict, "ns/lax": lax}}
	secretVolume := func(name string) corev1.Volume {
		return corev1.Volume{Name: "s", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: name}}}
	}
	envRef := func(secret string) corev1.Container {
		return corev1.Container{Name: "env", Image: "i", Env: []corev1.EnvVar{{Name: "PASSWORD", ValueFrom: &corev1.EnvVarSource{
			SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: secret}, Key: "k"}}}}}
	}
	envFrom := func(secret string) corev1.Container {
		return corev1.Container{Name: "from", Image: "i", EnvFrom: []corev1.EnvFromSource{{
			SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: secret}}}}}
	}
	tests := []struct {
		name    string
		pod     *corev1.Pod
		wantErr string
	}{
		{name: "listed secret volume", pod: pod().sa("strict").volume(secretVolume("listed")).build()},
		{name: "listed env and envFrom", pod: pod().sa("strict").container(envRef("listed")).container(envFrom("listed")).build()},
		{name: "listed pull secret", pod: pod().sa("strict").pullSecrets("registry").build()},
		{name: "the account's pull secrets copied", pod: pod().sa("strict").build()},
		{
			name:    "unlisted secret volume",
			pod:     pod().sa("strict").volume(secretVolume("other")).build(),
			wantErr: `pods "p" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret`,
		},
		{
			name:    "unlisted env",
			pod:     pod().sa("strict").container(envRef("other")).build(),
			wantErr: `pods "p" is forbidden: container env with envVar PASSWORD referencing secret.secretName="other" is not allowed because service account strict does not reference that secret`,
		},
		{
			name: "unlisted envFrom of an init container",
			pod: func() *corev1.Pod {
				p := pod().sa("strict").build()
				p.Spec.InitContainers = []corev1.Container{envFrom("other")}
				return p
			}(),
			wantErr: `pods "p" is forbidden: init container from with envFrom referencing secret.secretName="other" is not allowed because service account strict does not reference that secret`,
		},
		{
			name:    "unlisted pull secret",
			pod:     pod().sa("strict").pullSecrets("mine").build(),
			wantErr: `pods "p" is forbidden: imagePullSecrets[0].name="mine" is not allowed because service account strict does not reference that imagePullSecret`,
		},
		{name: "annotation false", pod: pod().sa("lax").volume(secretVolume("other")).build()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(New(acc), attrs(tt.pod, ""))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !apierrors.IsForbidden(err) || err.Error() != tt.wantErr {
				t.Fatalf("error = %v, want 403 %q", err, tt.wantErr)
			}
		})
	}
}
