package serviceaccount

import (
	"fmt"
	"strconv"

	corev1 "platform.io/client/api/core/v1"
)

// EnforceMountableSecretsAnnotation, set to "true" on a service account,
// limits the secrets its pods may use to those in its `secrets` list (and
// their image pull secrets to its `imagePullSecrets`).
const EnforceMountableSecretsAnnotation = "platform.io/enforce-mountable-secrets"

func enforcesMountableSecrets(sa *corev1.ServiceAccount) bool {
	v, _ := strconv.ParseBool(sa.Annotations[EnforceMountableSecretsAnnotation])
	return v
}

// limitSecretReferences refuses a pod that uses a secret its account does
// not list: in a secret volume, in a container's env or envFrom, or as an
// image pull secret.
func limitSecretReferences(sa *corev1.ServiceAccount, pod *corev1.Pod) error {
	mountable := map[string]bool{}
	for _, s := range sa.Secrets {
		mountable[s.Name] = true
	}
	for _, v := range pod.Spec.Volumes {
		if v.Secret != nil && !mountable[v.Secret.SecretName] {
			return fmt.Errorf("volume with secret.secretName=%q is not allowed because service account %s does not reference that secret", v.Secret.SecretName, sa.Name)
		}
	}
	for _, c := range pod.Spec.InitContainers {
		if err := limitContainer("init container", &c, mountable, sa.Name); err != nil {
			return err
		}
	}
	for _, c := range pod.Spec.Containers {
		if err := limitContainer("container", &c, mountable, sa.Name); err != nil {
			return err
		}
	}
	pull := map[string]bool{}
	for _, s := range sa.ImagePullSecrets {
		pull[s.Name] = true
	}
	for i, s := range pod.Spec.ImagePullSecrets {
		if !pull[s.Name] {
			return fmt.Errorf("imagePullSecrets[%d].name=%q is not allowed because service account %s does not reference that imagePullSecret", i, s.Name, sa.Name)
		}
	}
	return nil
}

func limitContainer(what string, c *corev1.Container, mountable map[string]bool, account string) error {
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && !mountable[e.ValueFrom.SecretKeyRef.Name] {
			return fmt.Errorf("%s %s with envVar %s referencing secret.secretName=%q is not allowed because service account %s does not reference that secret",
				what, c.Name, e.Name, e.ValueFrom.SecretKeyRef.Name, account)
		}
	}
	for _, e := range c.EnvFrom {
		if e.SecretRef != nil && !mountable[e.SecretRef.Name] {
			return fmt.Errorf("%s %s with envFrom referencing secret.secretName=%q is not allowed because service account %s does not reference that secret",
				what, c.Name, e.SecretRef.Name, account)
		}
	}
	return nil
}
