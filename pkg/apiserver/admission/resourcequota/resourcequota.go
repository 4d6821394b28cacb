package resourcequota

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/admission/nsobjects"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/quota"
)

// Name is the plugin's name in --enable-admission-plugins.
const Name = "ResourceQuota"

// Quotas reads and charges the quotas of a namespace.
type Quotas interface {
	// List returns the quotas of namespace ns.
	List(ctx context.Context, ns string) ([]*corev1.ResourceQuota, error)
	// Forget drops any remembered answer about ns.
	Forget(ns string)
	// UpdateStatus applies change to the current quota and stores its
	// status with a compare-and-swap, calling change again on the newer
	// quota whenever the swap loses a race. An error of change aborts.
	// With dryRun nothing is stored.
	UpdateStatus(ctx context.Context, ns, name string, change func(q *corev1.ResourceQuota) error, dryRun bool) error
}

// Plugin is the ResourceQuota plugin.
type Plugin struct {
	quotas Quotas
	now    func() time.Time
}

var _ admission.Validator = (*Plugin)(nil)

// New returns the plugin over quotas; now may be nil for time.Now.
func New(quotas Quotas, now func() time.Time) *Plugin {
	if now == nil {
		now = time.Now
	}
	return &Plugin{quotas: quotas, now: now}
}

// NewFromStore returns the plugin over the resourcequotas store.
func NewFromStore(s *registry.Store) (*Plugin, error) {
	if s == nil {
		return nil, errors.New("resourcequotas are not served")
	}
	return New(&storeQuotas{Lister: nsobjects.New[*corev1.ResourceQuota](nsobjects.StoreSource(s), nsobjects.DefaultEmptyTTL, nil), store: s}, nil), nil
}

// Handles implements admission.Interface: creates and updates.
func (p *Plugin) Handles(op admission.Operation) bool {
	return op == admission.Create || op == admission.Update
}

var quotasGR = meta.GroupResource{Resource: "resourcequotas"}

// Validate checks the write against every matching quota and charges it.
func (p *Plugin) Validate(ctx context.Context, a *admission.Attributes) error {
	if a.Subresource != "" || a.Namespace == "" || a.Object == nil {
		return nil
	}
	gr := a.GroupResource()
	if gr == quotasGR && a.Operation == admission.Create {
		p.quotas.Forget(a.Namespace)
	}
	all, err := p.quotas.List(ctx, a.Namespace)
	if err != nil || len(all) == 0 {
		return err
	}
	forbidden := func(err error) error { return apierrors.NewForbidden(gr, a.Name, err) }
	var charged []*corev1.ResourceQuota
	for _, q := range all {
		ok, err := applies(q, gr, a.Object)
		if err != nil {
			return forbidden(err)
		}
		if ok {
			charged = append(charged, q)
		}
	}
	if len(charged) == 0 {
		return nil
	}
	delta := quota.Usage(gr, a.Object, p.now())
	if a.Operation == admission.Update && a.OldObject != nil && a.OldObject.GetObjectMeta().ResourceVersion != "" {
		delta = quota.SubtractNonNegative(delta, quota.Usage(gr, a.OldObject, p.now()))
	}
	if delta = quota.RemoveZeros(delta); len(delta) == 0 {
		return nil
	}
	// Check every quota against what was listed before charging any. The
	// listed quotas are shared with other requests (nsobjects.StoreSource),
	// so each is charged on a copy: charge replaces Status.Used.
	for _, q := range charged {
		c := *q
		if err := charge(&c, gr, a.Object, delta); err != nil {
			return forbidden(err)
		}
	}
	return p.chargeAll(ctx, a, charged, gr, delta, forbidden)
}

// chargeAll charges delta to each quota in turn; when one refuses, those
// already charged are given it back.
func (p *Plugin) chargeAll(ctx context.Context, a *admission.Attributes, qs []*corev1.ResourceQuota, gr meta.GroupResource, delta corev1.ResourceList, forbidden func(error) error) error {
	slices.SortFunc(qs, func(x, y *corev1.ResourceQuota) int { return compareStrings(x.Name, y.Name) })
	for i, q := range qs {
		var refused error
		err := p.quotas.UpdateStatus(ctx, a.Namespace, q.Name, func(cur *corev1.ResourceQuota) error {
			refused = charge(cur, gr, a.Object, delta)
			if refused != nil {
				return forbidden(refused)
			}
			return nil
		}, a.DryRun)
		if apierrors.IsNotFound(err) {
			continue // deleted meanwhile: it limits nothing any more
		}
		if err != nil {
			if !a.DryRun {
				p.refund(ctx, a.Namespace, qs[:i], gr, a.Object, delta)
			}
			return err
		}
	}
	return nil
}

// refund gives delta back to quotas charged for a write that was then refused.
func (p *Plugin) refund(ctx context.Context, ns string, qs []*corev1.ResourceQuota, gr meta.GroupResource, obj meta.Object, delta corev1.ResourceList) {
	for _, q := range qs {
		_ = p.quotas.UpdateStatus(ctx, ns, q.Name, func(cur *corev1.ResourceQuota) error {
			if ok, _ := applies(cur, gr, obj); ok {
				requested := quota.Mask(delta, quota.Names(cur.Status.Hard))
				cur.Status.Used = quota.SubtractNonNegative(cur.Status.Used, requested)
			}
			return nil // unchanged: nothing is written
		}, false)
	}
}

// applies reports whether q limits obj: it matches q's scopes and q
// enforces something objects of gr use. It returns the error that
// refuses obj outright: a pod lacking a request or limit q requires, or
// a quota whose usage is not known yet.
func applies(q *corev1.ResourceQuota, gr meta.GroupResource, obj meta.Object) (bool, error) {
	if !quota.Matches(q, gr, obj) {
		return false, nil
	}
	restricted := quota.Matching(gr, q.Status.Hard)
	if len(restricted) == 0 {
		return false, nil
	}
	if pod, ok := obj.(*corev1.Pod); ok {
		if err := quota.PodConstraints(pod, restricted); err != nil {
			return false, fmt.Errorf("failed quota: %s: %w", q.Name, err)
		}
	}
	for _, n := range restricted {
		if _, ok := q.Status.Used[n]; !ok {
			return false, fmt.Errorf("status unknown for quota: %s, resources: %s", q.Name, quota.FormatNames(restricted))
		}
	}
	return true, nil
}

// charge adds delta to q's status.used, or returns why it would exceed
// status.hard, in upstream's words.
func charge(q *corev1.ResourceQuota, gr meta.GroupResource, obj meta.Object, delta corev1.ResourceList) error {
	ok, err := applies(q, gr, obj)
	if err != nil || !ok {
		return err
	}
	requested := quota.Mask(delta, quota.Names(q.Status.Hard))
	if len(requested) == 0 {
		return nil
	}
	used := quota.Add(q.Status.Used, requested)
	if fits, over := quota.LessThanOrEqual(quota.Mask(used, quota.Names(requested)), q.Status.Hard); !fits {
		return fmt.Errorf("exceeded quota: %s, requested: %s, used: %s, limited: %s", q.Name,
			quota.Format(quota.Mask(requested, over)), quota.Format(quota.Mask(q.Status.Used, over)),
			quota.Format(quota.Mask(q.Status.Hard, over)))
	}
	q.Status.Used = used
	return nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
