package nodelifecycle

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	ctrl "platform.io/client/controller"
)

// reconcilePod evicts a pod from its NoExecute-tainted node when its
// toleration time is over, or comes back when it will be.
func (c *Controller) reconcilePod(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name, _ := strings.Cut(key, "/")
	pod, err := c.pods.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("read pod %s: %w", key, err)
	}
	if pod.DeletionTimestamp != nil || pod.Spec.NodeName == "" {
		return ctrl.Result{}, nil
	}
	node, err := c.nodes.Get(pod.Spec.NodeName)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("read node %s: %w", pod.Spec.NodeName, err)
	}
	at, evict := evictionTime(pod, node.Spec.Taints, c.seenFunc(node.Name), c.opts.PodEvictionTimeout)
	if !evict {
		return ctrl.Result{}, nil
	}
	if now := c.now(); now.Before(at) {
		return ctrl.Result{RequeueAfter: at.Sub(now)}, nil
	}
	c.rec.Eventf(podRef(pod), corev1.EventTypeNormal, reasonTaintEviction, "Marking for deletion Pod %s/%s", pod.Namespace, pod.Name)
	if err := c.w.deletePod(ctx, pod); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// seenFunc returns when each NoExecute taint of the node without
// timeAdded was first seen, remembering now for a new one.
func (c *Controller) seenFunc(node string) func(corev1.Taint) time.Time {
	return func(t corev1.Taint) time.Time {
		c.mu.Lock()
		defer c.mu.Unlock()
		k := node + "/" + t.Key
		at, ok := c.seen[k]
		if !ok {
			at = c.now()
			c.seen[k] = at
		}
		return at
	}
}

// reconcileNode keeps the node's NoSchedule taints in line with its
// conditions, and forgets a deleted node.
func (c *Controller) reconcileNode(ctx context.Context, name string) (ctrl.Result, error) {
	node, err := c.nodes.Get(name)
	if apierrors.IsNotFound(err) {
		c.forgetNode(name)
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("read node %s: %w", name, err)
	}
	want := wantNoSchedule(node)
	if _, changed := withNoSchedule(node.Spec.Taints, want, c.now()); !changed {
		return ctrl.Result{}, nil
	}
	now := c.now()
	return ctrl.Result{}, c.w.updateTaints(ctx, name, func(t []corev1.Taint) ([]corev1.Taint, bool) { return withNoSchedule(t, want, now) })
}

func (c *Controller) forgetNode(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.health, name)
	for _, q := range c.queues {
		q.remove(name)
	}
	for k := range c.seen {
		if strings.HasPrefix(k, name+"/") {
			delete(c.seen, k)
		}
	}
}

func podConditionIndex(pod *corev1.Pod, typ corev1.PodConditionType) int {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == typ {
			return i
		}
	}
	return -1
}

func metaNow(now time.Time) meta.Time { return meta.NewTime(now.UTC().Truncate(time.Second)) }

func nodeRef(n *corev1.Node) *corev1.ObjectReference {
	return &corev1.ObjectReference{APIVersion: "v1", Kind: "Node", Name: n.Name, UID: n.UID}
}

func podRef(p *corev1.Pod) *corev1.ObjectReference {
	return &corev1.ObjectReference{APIVersion: "v1", Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID}
}
