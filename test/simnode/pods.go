package simnode

import (
	"context"
	"fmt"
	"strings"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
)

// reconcilePod takes one pod bound to one of the agent's nodes one step
// further (see nextStep) and comes back when its next change is due.
func (a *Agent) reconcilePod(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name, _ := strings.Cut(key, "/")
	pod, err := a.podLister.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("simnode: read pod %s: %w", key, err)
	}
	n, ok := a.nodes[pod.Spec.NodeName]
	if !ok || n.isStopped() {
		return ctrl.Result{}, nil
	}
	env := podEnv{hostIP: n.hostIP, podIP: pod.Status.PodIP, readinessDelay: a.cfg.ReadinessDelay, jobDuration: a.cfg.JobPodDuration}
	terminal := pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed
	if pod.DeletionTimestamp == nil && !terminal {
		if env.podIP, err = n.allocateIP(key, pod.Status.PodIP); err != nil {
			return ctrl.Result{}, err
		}
	}
	st := nextStep(pod, env, a.now())
	if st.status != nil {
		p := *pod
		p.Status = *st.status
		if _, err := n.clients.Pods.Namespace(ns).UpdateStatus(ctx, &p, meta.WriteOptions{}); err != nil {
			if apierrors.IsNotFound(err) {
				return ctrl.Result{}, nil
			}
			return ctrl.Result{}, fmt.Errorf("simnode: update status of pod %s: %w", key, err)
		}
		if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			n.releaseIP(key, p.Status.PodIP)
		}
	}
	if st.delete {
		zero, uid := int64(0), pod.UID
		err := n.clients.Pods.Namespace(ns).Delete(ctx, name, &meta.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &meta.Preconditions{UID: &uid}})
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
			return ctrl.Result{}, fmt.Errorf("simnode: confirm deletion of pod %s: %w", key, err)
		}
		n.releaseIP(key, pod.Status.PodIP)
		a.lg.Debug("Pod deleted", zap.String("pod", key), zap.String("node", n.name))
	}
	return ctrl.Result{RequeueAfter: st.after}, nil
}

// forgetPod frees the IP of a deleted pod.
func (a *Agent) forgetPod(pod *corev1.Pod) {
	if n, ok := a.nodes[pod.Spec.NodeName]; ok {
		n.releaseIP(informer.Key(pod), pod.Status.PodIP)
		a.observeUsage(n)
	}
}
