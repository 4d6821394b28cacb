package defaultbinder

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in profiles.
const Name = "DefaultBinder"

// Binder binds pods through the API server.
type Binder struct {
	h framework.Handle
}

var _ framework.BindPlugin = (*Binder)(nil)

// New builds the plugin; it takes no arguments.
func New(args json.RawMessage, h framework.Handle) (framework.Plugin, error) {
	if err := framework.DecodeArgs(Name, args, &struct{}{}); err != nil {
		return nil, err
	}
	return &Binder{h: h}, nil
}

// Name returns the plugin's name.
func (b *Binder) Name() string { return Name }

// Bind posts the binding; the pod's UID guards against binding a pod of
// the same name created after this one was deleted.
func (b *Binder) Bind(ctx context.Context, _ *framework.CycleState, pod *corev1.Pod, nodeName string) *framework.Status {
	binding := &corev1.Binding{
		ObjectMeta: meta.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
		Target:     corev1.ObjectReference{Kind: "Node", Name: nodeName},
	}
	if err := b.h.Clients().Pods.Namespace(pod.Namespace).Bind(ctx, binding, meta.WriteOptions{}); err != nil {
		return framework.AsStatus(fmt.Errorf("bind %s/%s to %s: %w", pod.Namespace, pod.Name, nodeName, err))
	}
	return nil
}
