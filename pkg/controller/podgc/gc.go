package podgc

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/informer"
)

// api is what the loop does on the server.
type api interface {
	ForceDeletePod(ctx context.Context, ns, name string, uid meta.UID) error
	// NodeExists reports whether the node is there; a NotFound error
	// comes with false.
	NodeExists(ctx context.Context, name string) (bool, error)
}

// GC is the pod garbage collector. Run it once.
type GC struct {
	lg        *zap.Logger
	pods      informer.Lister[*corev1.Pod]
	nodes     informer.Lister[*corev1.Node]
	api       api
	threshold int
	timing    Timing
	// missingSince is when each node pods are bound to was first seen
	// missing from the cache; only Run's goroutine touches it.
	missingSince map[string]time.Time
}

// Run makes a pass every period until ctx ends.
func (g *GC) Run(ctx context.Context) error {
	t := time.NewTicker(g.timing.Period)
	defer t.Stop()
	for {
		if err := g.Pass(ctx); err != nil {
			g.lg.Info("pod gc pass failed", zap.Error(err))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Pass makes one collection: terminated pods over the threshold, pods of
// deleted nodes, unscheduled terminating pods.
func (g *GC) Pass(ctx context.Context) error {
	pods, err := g.pods.List(nil)
	if err != nil {
		return fmt.Errorf("list pods: %w", err)
	}
	return errors.Join(
		g.deleteAll(ctx, overThreshold(pods, g.threshold), "terminated pod over the threshold"),
		g.orphaned(ctx, pods),
		g.deleteAll(ctx, unscheduledTerminating(pods), "unscheduled terminating pod"),
	)
}

// overThreshold returns the oldest terminated pods beyond threshold;
// threshold 0 turns this off.
func overThreshold(pods []*corev1.Pod, threshold int) []*corev1.Pod {
	if threshold <= 0 {
		return nil
	}
	var done []*corev1.Pod
	for _, p := range pods {
		if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			done = append(done, p)
		}
	}
	if len(done) <= threshold {
		return nil
	}
	slices.SortFunc(done, func(a, b *corev1.Pod) int {
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		return cmp.Compare(podRef(a), podRef(b))
	})
	return done[:len(done)-threshold]
}

func unscheduledTerminating(pods []*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range pods {
		if p.DeletionTimestamp != nil && p.Spec.NodeName == "" {
			out = append(out, p)
		}
	}
	return out
}

// orphaned deletes the pods bound to nodes that are gone: missing from the
// cache for the quarantine, then not found on the server.
func (g *GC) orphaned(ctx context.Context, pods []*corev1.Pod) error {
	now := g.timing.Now()
	byNode := map[string][]*corev1.Pod{}
	for _, p := range pods {
		if n := p.Spec.NodeName; n != "" {
			if _, err := g.nodes.Get(n); apierrors.IsNotFound(err) {
				byNode[n] = append(byNode[n], p)
			}
		}
	}
	for n := range g.missingSince {
		if _, ok := byNode[n]; !ok {
			delete(g.missingSince, n) // back, or no pods left on it
		}
	}
	var errs []error
	for n, onNode := range byNode {
		since, ok := g.missingSince[n]
		if !ok {
			g.missingSince[n] = now
			continue
		}
		if now.Sub(since) < g.timing.Quarantine {
			continue
		}
		exists, err := g.api.NodeExists(ctx, n)
		switch {
		case exists:
			delete(g.missingSince, n)
			continue
		case !apierrors.IsNotFound(err):
			errs = append(errs, fmt.Errorf("get node %s: %w", n, err))
			continue
		}
		errs = append(errs, g.deleteAll(ctx, onNode, "pod of a deleted node"))
	}
	return errors.Join(errs...)
}

// deleteAll force-deletes pods; pods already gone count as deleted.
func (g *GC) deleteAll(ctx context.Context, pods []*corev1.Pod, why string) error {
	var errs []error
	for _, p := range pods {
		err := g.api.ForceDeletePod(ctx, p.Namespace, p.Name, p.UID)
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("delete %s %s: %w", why, podRef(p), err))
			continue
		}
		g.lg.Info("deleted pod", zap.String("pod", podRef(p)), zap.String("why", why))
	}
	return errors.Join(errs...)
}
