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

// AuthenticationConfigMap is where components that delegate authentication
// look up the API server's client CA and front-proxy settings.
const AuthenticationConfigMap = "extension-apiserver-authentication"

// ensureAuthenticationConfigMap publishes the authentication settings for
// delegating components in platform-system. With no client CA and no
// front-proxy configured (the defaults) it holds no keys, which tells a
// component that looks it up to trust no client certificate.
func ensureAuthenticationConfigMap(ctx context.Context, configmaps *registry.Store, data map[string]string) error {
	cm := &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: AuthenticationConfigMap, Namespace: "platform-system"}, Data: data}
	_, err := configmaps.Create(ctx, cm, false)
	if apierrors.IsAlreadyExists(err) {
		_, _, err = configmaps.Update(ctx, "platform-system", AuthenticationConfigMap, func(_ context.Context, cur meta.Object) (meta.Object, error) {
			cur.(*corev1.ConfigMap).Data = data
			return cur, nil
		}, registry.UpdateOptions{Patch: true})
	}
	if err != nil {
		return fmt.Errorf("publish %s: %w", AuthenticationConfigMap, err)
	}
	return nil
}
