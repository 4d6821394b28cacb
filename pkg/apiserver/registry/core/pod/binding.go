package pod

import (
	"context"
	"fmt"
	"net/http"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

var podsResource = meta.GroupResource{Resource: "pods"}

// bind serves POST pods/{name}/binding: it sets spec.nodeName to the
// binding's target and merges the binding's annotations into the pod. The
// PodScheduled condition is set by the update's prepareForUpdate.
func bind(ctx context.Context, s *registry.Store, namespace, name string, decode registry.Decoder, dryRun bool) (meta.Object, error) {
	b, err := decodeBinding(decode, namespace, name)
	if err != nil {
		return nil, err
	}
	transform := func(_ context.Context, cur meta.Object) (meta.Object, error) {
		if cur == nil {
			return nil, apierrors.NewNotFound(podsResource, name)
		}
		pod := cur.(*corev1.Pod)
		if err := assign(pod, b); err != nil {
			return nil, err
		}
		return pod, nil
	}
	opts := registry.UpdateOptions{Part: registry.Main, DryRun: dryRun, Patch: true}
	if _, _, err := s.Update(ctx, namespace, name, transform, opts); err != nil {
		return nil, err
	}
	return registry.NewSuccess(http.StatusCreated, ""), nil
}

// decodeBinding reads a Binding body and checks it against the request URL.
func decodeBinding(decode registry.Decoder, namespace, name string) (*corev1.Binding, error) {
	b := &corev1.Binding{}
	if err := decode(b); err != nil {
		return nil, err
	}
	if b.Kind != "" && b.Kind != "Binding" {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("expected a Binding, got kind %q", b.Kind))
	}
	if b.Namespace != "" && b.Namespace != namespace {
		return nil, apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if b.Name == "" {
		b.Name = name
	}
	if b.Name != name {
		return nil, apierrors.NewBadRequest("name in URL does not match name in Binding object")
	}
	b.Namespace = namespace
	if errs := validateBinding(b); len(errs) > 0 {
		gvk := meta.GroupVersionKind{Version: "v1", Kind: "Binding"}
		return nil, apierrors.NewInvalid(gvk, name, errs.Causes())
	}
	return b, nil
}

func validateBinding(b *corev1.Binding) field.ErrorList {
	var errs field.ErrorList
	tp := field.NewPath("target")
	if b.Target.Kind != "" && b.Target.Kind != "Node" {
		errs = append(errs, field.NotSupported(tp.Child("kind"), b.Target.Kind, []string{"Node", "<empty>"}))
	}
	if b.Target.Name == "" {
		errs = append(errs, field.Required(tp.Child("name"), ""))
	}
	return errs
}

// assign places pod on the binding's node. A pod that is being deleted, is
// already on a node, or fails the binding's uid or resourceVersion
// precondition is a conflict.
func assign(pod *corev1.Pod, b *corev1.Binding) error {
	conflict := func(format string, args ...any) error {
		return apierrors.NewConflict(podsResource, pod.Name, fmt.Errorf(format, args...))
	}
	switch {
	case b.UID != "" && b.UID != pod.UID:
		return conflict("precondition failed: the binding names uid %s, the pod has uid %s", b.UID, pod.UID)
	case b.ResourceVersion != "" && b.ResourceVersion != pod.ResourceVersion:
		return conflict("precondition failed: the binding names resourceVersion %s, the pod has %s", b.ResourceVersion, pod.ResourceVersion)
	case pod.DeletionTimestamp != nil:
		return conflict("pod %s is being deleted and cannot be bound to a node", pod.Name)
	case pod.Spec.NodeName != "":
		return conflict("pod %s is already bound to node %q", pod.Name, pod.Spec.NodeName)
	}
	pod.Spec.NodeName = b.Target.Name
	for k, v := range b.Annotations {
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations[k] = v
	}
	return nil
}
