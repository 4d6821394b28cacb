package serviceaccount

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/authz/node"
)

// Name is the plugin's upstream name.
const Name = "ServiceAccount"

// DefaultName is the service account of a pod that names none.
const DefaultName = "default"

// Getter reads one object, from a cache that never misses a fresh write,
// as an object shared with other readers that the plugin only looks at
// (registry.Store's GetShared).
type Getter interface {
	GetShared(ctx context.Context, ns, name string) (meta.Object, error)
}

// Plugin is the ServiceAccount admission plugin.
type Plugin struct {
	accounts Getter
	// suffix makes the random part of the token volume's name.
	suffix func() string
}

var (
	_ admission.Mutator   = (*Plugin)(nil)
	_ admission.Validator = (*Plugin)(nil)
)

// New returns the plugin reading service accounts from accounts.
func New(accounts Getter) *Plugin {
	return &Plugin{accounts: accounts, suffix: randomSuffix}
}

// Handles implements admission.Interface: only pod creation.
func (p *Plugin) Handles(op admission.Operation) bool { return op == admission.Create }

// Admit sets the pod's service account, its image pull secrets (from the
// account, when the pod has none) and its token volume. A mirror pod is
// left as it is (its node would not recognise it changed); Validate
// checks it.
func (p *Plugin) Admit(ctx context.Context, a *admission.Attributes) error {
	pod, ok := podOf(a)
	if !ok {
		return nil
	}
	if isMirror(pod) {
		return nil
	}
	if pod.Spec.ServiceAccountName == "" {
		pod.Spec.ServiceAccountName = DefaultName
	}
	sa, err := p.account(ctx, a, pod.Spec.ServiceAccountName)
	if err != nil {
		return err
	}
	if automount(sa, pod) {
		p.mountToken(pod)
	}
	if len(pod.Spec.ImagePullSecrets) == 0 && len(sa.ImagePullSecrets) > 0 {
		pod.Spec.ImagePullSecrets = make([]corev1.LocalObjectReference, len(sa.ImagePullSecrets))
		for i, s := range sa.ImagePullSecrets {
			pod.Spec.ImagePullSecrets[i] = corev1.LocalObjectReference{Name: s.Name}
		}
	}
	return nil
}

// Validate refuses a pod without a service account or whose account does
// not exist, a pod using secrets its account does not list when the
// account enforces that, and a mirror pod that references a service
// account, a secret or a token projection.
func (p *Plugin) Validate(ctx context.Context, a *admission.Attributes) error {
	pod, ok := podOf(a)
	if !ok {
		return nil
	}
	if isMirror(pod) {
		return validateMirror(pod)
	}
	if pod.Spec.ServiceAccountName == "" {
		return fmt.Errorf("no service account specified for pod %s/%s", a.Namespace, pod.Name)
	}
	sa, err := p.account(ctx, a, pod.Spec.ServiceAccountName)
	if err != nil {
		return err
	}
	if enforcesMountableSecrets(sa) {
		return limitSecretReferences(sa, pod)
	}
	return nil
}

// account reads the pod's service account. A missing account, or one that
// cannot be read, refuses the pod with 403 as upstream does; the error
// names the account in upstream's words.
func (p *Plugin) account(ctx context.Context, a *admission.Attributes, name string) (*corev1.ServiceAccount, error) {
	obj, err := p.accounts.GetShared(ctx, a.Namespace, name)
	if err != nil {
		why := err.Error()
		if apierrors.IsNotFound(err) {
			why = apierrors.NewNotFound(meta.GroupResource{Resource: "serviceaccount"}, name).Error()
		}
		return nil, forbidden(a, fmt.Errorf("error looking up service account %s/%s: %s", a.Namespace, name, why))
	}
	sa, ok := obj.(*corev1.ServiceAccount)
	if !ok {
		return nil, forbidden(a, fmt.Errorf("error looking up service account %s/%s: unexpected type %T", a.Namespace, name, obj))
	}
	return sa, nil
}

// forbidden is the 403 the chain would make of err, made here so that a
// wrapped API status (a storage error) does not become the answer itself.
func forbidden(a *admission.Attributes, err error) error {
	return apierrors.NewForbidden(a.GroupResource(), a.Name, err)
}

func validateMirror(pod *corev1.Pod) error {
	if pod.Spec.ServiceAccountName != "" {
		return errors.New("a mirror pod may not reference service accounts")
	}
	if node.PodReferences(pod, node.Secret) {
		return errors.New("a mirror pod may not reference secrets")
	}
	for _, v := range pod.Spec.Volumes {
		if v.Projected == nil {
			continue
		}
		for _, s := range v.Projected.Sources {
			if s.ServiceAccountToken != nil {
				return errors.New("a mirror pod may not use ServiceAccountToken volume projections")
			}
		}
	}
	return nil
}

// podOf returns the pod of a write to pods itself (not a subresource).
func podOf(a *admission.Attributes) (*corev1.Pod, bool) {
	if a.Resource.Group != "" || a.Resource.Resource != "pods" || a.Subresource != "" {
		return nil, false
	}
	pod, ok := a.Object.(*corev1.Pod)
	return pod, ok
}

func isMirror(pod *corev1.Pod) bool {
	_, ok := pod.Annotations[corev1.MirrorPodAnnotationKey]
	return ok
}

// automount is the pod's automountServiceAccountToken, else the
// account's, else true.
func automount(sa *corev1.ServiceAccount, pod *corev1.Pod) bool {
	if v := pod.Spec.AutomountServiceAccountToken; v != nil {
		return *v
	}
	if v := sa.AutomountServiceAccountToken; v != nil {
		return *v
	}
	return true
}

// suffixAlphabet is the alphabet of upstream's random name suffixes: no
// vowels (no words) and no easily confused characters.
const suffixAlphabet = "bcdfghjklmnpqrstvwxz2456789"

func randomSuffix() string {
	b := make([]byte, 5)
	for i := range b {
		b[i] = suffixAlphabet[rand.IntN(len(suffixAlphabet))]
	}
	return string(b)
}
