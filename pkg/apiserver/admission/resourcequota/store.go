package resourcequota

import (
	"context"
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission/nsobjects"
	"platform.io/platform/pkg/apiserver/registry"
)

// storeQuotas reads quotas through the watch cache and writes their
// status through the store, whose update is a compare-and-swap retried
// on the newer object.
type storeQuotas struct {
	*nsobjects.Lister[*corev1.ResourceQuota]
	store *registry.Store
}

var _ Quotas = (*storeQuotas)(nil)

func (s *storeQuotas) UpdateStatus(ctx context.Context, ns, name string, change func(q *corev1.ResourceQuota) error, dryRun bool) error {
	_, _, err := s.store.Update(ctx, ns, name, func(_ context.Context, cur meta.Object) (meta.Object, error) {
		q, ok := cur.(*corev1.ResourceQuota)
		if !ok {
			return nil, fmt.Errorf("resourcequota: stored object is a %T", cur)
		}
		if err := change(q); err != nil {
			return nil, err
		}
		return q, nil
	}, registry.UpdateOptions{Part: registry.StatusPart, Patch: true, DryRun: dryRun})
	return err
}
