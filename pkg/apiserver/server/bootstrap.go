package server

import (
	"context"
	"fmt"
	"net"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	schedulingv1 "platform.io/client/api/scheduling/v1"

	"platform.io/platform/pkg/apiserver/controlplane"
	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/scheduling/priorityclass"
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

// bootstrapRun is the creation of the system objects and then the
// platform Service controller, running until cancel.
type bootstrapRun struct {
	cancel context.CancelFunc
	// done is closed when the run has returned; c is set before, once the
	// bootstrap is done.
	done chan struct{}
	// ready is closed once the system namespaces, configmap and priority
	// classes exist.
	ready chan struct{}
	c     *controlplane.Controller
}

// startBootstrap creates the system namespaces, configmap and priority
// classes, then keeps the platform Service and its Endpoints until life
// ends or the run is cancelled.
func (s *Server) startBootstrap(life context.Context, g *errgroup.Group) *bootstrapRun {
	ctx, cancel := context.WithCancel(life)
	r := &bootstrapRun{cancel: cancel, done: make(chan struct{}), ready: make(chan struct{})}
	g.Go(func() error {
		defer close(r.done)
		err := ensureNamespaces(ctx, s.lg, s.namespaces())
		if err == nil {
			err = ensureAuthenticationConfigMap(ctx, s.store("", "configmaps"), s.authn.Published)
		}
		if err == nil {
			err = priorityclass.EnsureSystemClasses(ctx, s.lg, s.store(schedulingv1.GroupName, "priorityclasses"))
		}
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		s.bootstrapped.Store(true)
		close(r.ready)
		ro := s.opts.Reconciler
		r.c = controlplane.New(s.lg.Named("controlplane"), s.etcd, s.store("", "services"), s.controlPlaneEndpoints(), controlplane.Config{
			Self:       controlplane.Record{IP: s.opts.Generic.AdvertiseAddress.String(), Port: s.secure.Addr().(*net.TCPAddr).Port},
			Lease:      ro.Type == options.ReconcilerLease,
			TTL:        ro.LeaseTTL,
			EtcdPrefix: s.opts.Etcd.Prefix,
		})
		r.c.Run(ctx)
		return nil
	})
	return r
}

// controlPlaneEndpoints is the endpoints store the controller writes
// through, whose validation accepts loopback addresses.
func (s *Server) controlPlaneEndpoints() *registry.Store {
	r := controlplane.EndpointsResource(s.store("", "endpoints").Resource)
	c := s.storeConfig(r)
	c.Admission = nil // the server's own bookkeeping, as upstream's reconciler writes storage directly
	return registry.NewStore(r, c)
}
