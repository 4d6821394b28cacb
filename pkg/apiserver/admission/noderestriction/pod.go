package noderestriction

import (
	"context"
	"maps"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/authz/node"
)

// pod lets a node create its own mirror pods and delete pods bound to it.
func (p *Plugin) pod(ctx context.Context, name string, a *admission.Attributes) error {
	switch a.Operation {
	case admission.Create:
		return p.mirrorPod(ctx, name, a)
	case admission.Delete:
		old, ok := a.OldObject.(*corev1.Pod)
		if !ok {
			var err error
			if old, err = p.getPod(ctx, a.Namespace, a.Name); err != nil {
				return err
			}
		}
		if old.Spec.NodeName != name {
			return denyf("node %q can only delete pods with spec.nodeName set to itself", name)
		}
		return nil
	default:
		return denyf("unexpected operation %q, node %q can only create and delete mirror pods", a.Operation, name)
	}
}

// mirrorPod checks a pod a node creates: a mirror pod bound to the node,
// owned (as controller, without blocking deletion) by the node's own Node
// object, referencing no service account, secret, config map, claim or
// trust bundle.
func (p *Plugin) mirrorPod(ctx context.Context, name string, a *admission.Attributes) error {
	pod, ok := a.Object.(*corev1.Pod)
	if !ok {
		return denyf("unexpected type %T", a.Object)
	}
	if _, mirror := pod.Annotations[corev1.MirrorPodAnnotationKey]; !mirror {
		return denyf("pod does not have %q annotation, node %q can only create mirror pods", corev1.MirrorPodAnnotationKey, name)
	}
	if pod.Spec.NodeName != name {
		return denyf("node %q can only create pods with spec.nodeName set to itself", name)
	}
	if err := p.checkOwner(ctx, name, pod); err != nil {
		return err
	}
	if pod.Spec.ServiceAccountName != "" {
		return denyf("node %q can not create pods that reference a service account", name)
	}
	if node.PodReferences(pod, node.Secret) {
		return denyf("node %q can not create pods that reference secrets", name)
	}
	if node.PodReferences(pod, node.ConfigMap) {
		return denyf("node %q can not create pods that reference configmaps", name)
	}
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			return denyf("node %q can not create pods that reference persistentvolumeclaims", name)
		}
		if v.Projected == nil {
			continue
		}
		for _, s := range v.Projected.Sources {
			if s.ClusterTrustBundle != nil {
				return denyf("node %q can not create pods that use clustertrustbundles", name)
			}
		}
	}
	if len(pod.Spec.ResourceClaims) > 0 {
		return denyf("node %q can not create pods that reference resourceclaims", name)
	}
	return nil
}

// checkOwner requires the mirror pod's one owner to be the node's own
// Node object, by uid.
func (p *Plugin) checkOwner(ctx context.Context, name string, pod *corev1.Pod) error {
	switch len(pod.OwnerReferences) {
	case 0:
		return denyf("node %q can only create pods with an owner reference set to itself", name)
	case 1:
	default:
		return denyf("node %q can only create pods with a single owner reference set to itself", name)
	}
	owner := pod.OwnerReferences[0]
	if owner.APIVersion != "v1" || owner.Kind != "Node" || owner.Name != name {
		return denyf("node %q can only create pods with an owner reference set to itself", name)
	}
	if owner.Controller == nil || !*owner.Controller {
		return denyf("node %q can only create pods with a controller owner reference set to itself", name)
	}
	if owner.BlockOwnerDeletion != nil && *owner.BlockOwnerDeletion {
		return denyf("node %q must not set blockOwnerDeletion on an owner reference", name)
	}
	obj, err := p.nodes.GetCached(ctx, "", name)
	if err != nil {
		if isNotFound(err) {
			return err
		}
		return denyf("error looking up node %s to verify uid: %v", name, err)
	}
	if uid := obj.GetObjectMeta().UID; owner.UID != uid {
		return denyf("node %s UID mismatch: expected %s got %s", name, owner.UID, uid)
	}
	return nil
}

// podStatus lets a node update the status of pods bound to it, without
// changing their labels.
func podStatus(name string, a *admission.Attributes) error {
	if a.Operation != admission.Update {
		return denyf("unexpected operation %q", a.Operation)
	}
	old, ok := a.OldObject.(*corev1.Pod)
	if !ok {
		return denyf("unexpected type %T", a.OldObject)
	}
	if old.Spec.NodeName != name {
		return denyf("node %q can only update pod status for pods with spec.nodeName set to itself", name)
	}
	pod, ok := a.Object.(*corev1.Pod)
	if !ok {
		return denyf("unexpected type %T", a.Object)
	}
	if !maps.Equal(old.Labels, pod.Labels) {
		return denyf("node %q cannot update labels through pod status", name)
	}
	return nil
}

// eviction lets a node evict pods bound to it.
func (p *Plugin) eviction(ctx context.Context, name string, a *admission.Attributes) error {
	if a.Operation != admission.Create {
		return denyf("unexpected operation %s", a.Operation)
	}
	podName := objectName(a)
	if podName == "" {
		return denyf("could not determine pod from request data")
	}
	pod, err := p.getPod(ctx, a.Namespace, podName)
	if err != nil {
		return err
	}
	if pod.Spec.NodeName != name {
		return denyf("node %s can only evict pods with spec.nodeName set to itself", name)
	}
	return nil
}
