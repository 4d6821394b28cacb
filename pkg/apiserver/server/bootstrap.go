package server

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// SystemNamespaces exist after start: created if missing, never recreated
// by anything but a restart.
var SystemNamespaces = []string{"default", "platform-system", "platform-public", "platform-node-lease"}

// ensureNamespaces creates the system namespaces, retrying while etcd warms up.
func ensureNamespaces(ctx context.Context, lg *zap.Logger, namespaces *registry.Store) error {
	for _, name := range SystemNamespaces {
		for attempt := 0; ; attempt++ {
			ns := &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: name}}
			_, err := namespaces.Create(ctx, ns, false)
			if err == nil {
				lg.Info("created system namespace", zap.String("namespace", name))
			}
			if err == nil || apierrors.IsAlreadyExists(err) {
				break
			}
			if attempt >= 30 || ctx.Err() != nil {
				return fmt.Errorf("create namespace %s: %w", name, err)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
	}
	return nil
}
