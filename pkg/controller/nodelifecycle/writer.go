package nodelifecycle

import (
	"context"
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
)

// writer is every write the loop makes, so that tests can record them.
type writer interface {
	// updateNodeStatus writes node's status.
	updateNodeStatus(ctx context.Context, node *corev1.Node) error
	// updateTaints reads the node afresh, applies f to its taints and
	// writes them when f reports a change, retrying on conflicts.
	updateTaints(ctx context.Context, name string, f func([]corev1.Taint) ([]corev1.Taint, bool)) error
	// updatePodStatus writes pod's status.
	updatePodStatus(ctx context.Context, pod *corev1.Pod) error
	// deletePod deletes the pod, if it is still the one with its uid.
	deletePod(ctx context.Context, pod *corev1.Pod) error
}

// apiWriter writes through the API server.
type apiWriter struct {
	clients *client.Set
}

var _ writer = apiWriter{}

func (w apiWriter) updateNodeStatus(ctx context.Context, node *corev1.Node) error {
	if _, err := w.clients.Nodes.UpdateStatus(ctx, node, meta.WriteOptions{}); err != nil {
		return fmt.Errorf("update status of node %s: %w", node.Name, err)
	}
	return nil
}

// conflictRetries bounds the read-modify-write attempts of one taint change.
const conflictRetries = 5

func (w apiWriter) updateTaints(ctx context.Context, name string, f func([]corev1.Taint) ([]corev1.Taint, bool)) error {
	var err error
	for range conflictRetries {
		var node *corev1.Node
		node, err = w.clients.Nodes.Get(ctx, name, meta.GetOptions{})
		if err != nil {
			return fmt.Errorf("get node %s: %w", name, err)
		}
		taints, changed := f(node.Spec.Taints)
		if !changed {
			return nil
		}
		node.Spec.Taints = taints
		if _, err = w.clients.Nodes.Update(ctx, node, meta.WriteOptions{}); !apierrors.IsConflict(err) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("update taints of node %s: %w", name, err)
	}
	return nil
}

func (w apiWriter) updatePodStatus(ctx context.Context, pod *corev1.Pod) error {
	if _, err := w.clients.Pods.Namespace(pod.Namespace).UpdateStatus(ctx, pod, meta.WriteOptions{}); err != nil {
		return fmt.Errorf("update status of pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	return nil
}

func (w apiWriter) deletePod(ctx context.Context, pod *corev1.Pod) error {
	uid := pod.UID
	err := w.clients.Pods.Namespace(pod.Namespace).Delete(ctx, pod.Name, &meta.DeleteOptions{Preconditions: &meta.Preconditions{UID: &uid}})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	return nil
}
