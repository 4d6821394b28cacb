package simnode

import (
	"context"
	"fmt"
	"time"

	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	ctrl "platform.io/client/controller"
)

// leaseState is the last lease the node wrote, and when.
type leaseState struct {
	obj     *coordinationv1.Lease
	renewed time.Time
}

// reconcileNode renews the node's lease when due and reports its status
// when due or when someone else changed its conditions, then comes back at
// the next renewal. A stopped node does nothing.
func (a *Agent) reconcileNode(ctx context.Context, name string) (ctrl.Result, error) {
	n, ok := a.nodes[name]
	if !ok {
		return ctrl.Result{}, nil
	}
	n.mu.Lock()
	stopped, lease, lastReport := n.stopped, n.lease, n.lastReport
	n.mu.Unlock()
	if stopped {
		return ctrl.Result{}, nil
	}
	now := a.now()
	if lease == nil || now.Sub(lease.renewed) >= a.cfg.LeaseInterval-a.cfg.LeaseInterval/10 {
		if err := a.renewLease(ctx, n, lease, now); err != nil {
			return ctrl.Result{}, err
		}
		lease = &leaseState{renewed: now}
	}
	node, err := a.nodeList.Get(name)
	stale := err != nil || !healthy(node)
	if stale || now.Sub(lastReport) >= a.cfg.StatusInterval {
		if err := a.updateStatus(ctx, n, now); err != nil {
			return ctrl.Result{}, err
		}
		n.mu.Lock()
		n.lastReport = now
		n.mu.Unlock()
	}
	return ctrl.Result{RequeueAfter: max(lease.renewed.Add(a.cfg.LeaseInterval).Sub(now), time.Millisecond)}, nil
}

// renewLease writes the node's lease with renewTime now, creating it on
// the first renewal. The lease last written is kept so that a renewal is
// one update; a conflict or a missing lease drops it and the next attempt
// reads the lease afresh.
func (a *Agent) renewLease(ctx context.Context, n *simNode, last *leaseState, now time.Time) error {
	leases := n.clients.Leases.Namespace(corev1.NamespaceNodeLease)
	var cur *coordinationv1.Lease
	if last != nil {
		cur = last.obj
	} else {
		got, err := leases.Get(ctx, n.name, meta.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return fmt.Errorf("get lease of %s: %w", n.name, err)
		default:
			cur = got
		}
	}
	holder, secs := n.name, int32(a.cfg.LeaseDuration/time.Second)
	renew := meta.MicroTime{Time: now.UTC().Truncate(time.Microsecond)}
	var (
		out *coordinationv1.Lease
		err error
	)
	if cur == nil {
		l := &coordinationv1.Lease{
			ObjectMeta: meta.ObjectMeta{Name: n.name, Namespace: corev1.NamespaceNodeLease, OwnerReferences: a.nodeOwner(n.name)},
			Spec:       coordinationv1.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &secs, RenewTime: &renew},
		}
		out, err = leases.Create(ctx, l, meta.WriteOptions{})
	} else {
		l := *cur
		l.Spec.HolderIdentity, l.Spec.LeaseDurationSeconds, l.Spec.RenewTime = &holder, &secs, &renew
		if len(l.OwnerReferences) == 0 {
			// Created before the node reached the cache: owned from now on.
			l.OwnerReferences = a.nodeOwner(n.name)
		}
		out, err = leases.Update(ctx, &l, meta.WriteOptions{})
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if err != nil {
		n.lease = nil
		return fmt.Errorf("renew lease of %s: %w", n.name, err)
	}
	n.lease = &leaseState{obj: out, renewed: now}
	return nil
}

// nodeOwner makes the node the owner of its lease, so the lease goes with
// the node; it is empty while the node is not in the cache.
func (a *Agent) nodeOwner(name string) []meta.OwnerReference {
	node, err := a.nodeList.Get(name)
	if err != nil {
		return nil
	}
	return []meta.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID}}
}

// updateStatus reports the node's status with a fresh heartbeat, over the
// node as the server has it.
func (a *Agent) updateStatus(ctx context.Context, n *simNode, now time.Time) error {
	node, err := n.clients.Nodes.Get(ctx, n.name, meta.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = n.clients.Nodes.Create(ctx, n.object(&a.cfg, now), meta.WriteOptions{})
		return err
	}
	if err != nil {
		return fmt.Errorf("get node %s: %w", n.name, err)
	}
	n.setStatus(&node.Status, &a.cfg, now)
	if _, err := n.clients.Nodes.UpdateStatus(ctx, node, meta.WriteOptions{}); err != nil {
		return fmt.Errorf("update status of node %s: %w", n.name, err)
	}
	return nil
}
