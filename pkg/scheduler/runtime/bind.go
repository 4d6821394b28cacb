package runtime

import (
	"context"
	"errors"
	"time"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// RunPermitPlugins asks every permit plugin. Any rejection fails at once;
// if some ask to wait, the pod is held (Wait is returned) until they all
// allow it or one rejects or times out (see WaitOnPermit).
func (f *Framework) RunPermitPlugins(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, node string) (st *framework.Status) {
	start := time.Now()
	defer func() { f.observe(Permit, start, st) }()
	timeouts := map[string]time.Duration{}
	for _, pl := range f.permit {
		t := time.Now()
		s, timeout := pl.Permit(ctx, state, pod, node)
		f.observePlugin(ctx, pl.Name(), Permit, t, s)
		switch {
		case s.IsSuccess():
		case s.Code() == framework.Wait:
			timeouts[pl.Name()] = min(timeout, maxPermitTimeout)
		case s.IsRejected():
			return s.WithPlugin(pl.Name())
		default:
			return pluginError(Permit, pl.Name(), s)
		}
	}
	if len(timeouts) == 0 {
		return nil
	}
	f.waiting.add(pod.UID, newWaitingPod(timeouts))
	return framework.NewStatus(framework.Wait, "waiting on permit")
}

// WaitOnPermit blocks while permit plugins hold pod, and returns their
// verdict: nil once all allowed it.
func (f *Framework) WaitOnPermit(ctx context.Context, pod *corev1.Pod) *framework.Status {
	wp := f.waiting.get(pod.UID)
	if wp == nil {
		return nil
	}
	defer f.waiting.remove(pod.UID)
	select {
	case s := <-wp.result:
		return s
	case <-ctx.Done():
		wp.Reject("", "scheduler stopped")
		return framework.AsStatus(ctx.Err())
	}
}

// RunPreBindPlugins runs the pre-binds in order.
func (f *Framework) RunPreBindPlugins(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, node string) (st *framework.Status) {
	start := time.Now()
	defer func() { f.observe(PreBind, start, st) }()
	return runInOrder(ctx, f, PreBind, f.preBind, func(pl framework.PreBindPlugin) *framework.Status {
		return pl.PreBind(ctx, state, pod, node)
	})
}

// errAllBindersSkipped is returned when no bind plugin took the pod.
var errAllBindersSkipped = errors.New("every bind plugin skipped the pod")

// RunBindPlugins runs the binders until one does not Skip.
func (f *Framework) RunBindPlugins(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, node string) (st *framework.Status) {
	start := time.Now()
	defer func() { f.observe(Bind, start, st) }()
	for _, pl := range f.bind {
		t := time.Now()
		s := pl.Bind(ctx, state, pod, node)
		f.observePlugin(ctx, pl.Name(), Bind, t, s)
		if s.IsSkip() {
			continue
		}
		if !s.IsSuccess() {
			return failure(Bind, pl.Name(), s)
		}
		return nil
	}
	return framework.AsStatus(errAllBindersSkipped)
}

// RunPostBindPlugins tells the post-binds of a binding.
func (f *Framework) RunPostBindPlugins(ctx context.Context, state *framework.CycleState, pod *corev1.Pod, node string) {
	start := time.Now()
	defer func() { f.observe(PostBind, start, nil) }()
	for _, pl := range f.postBind {
		pl.PostBind(ctx, state, pod, node)
	}
}
