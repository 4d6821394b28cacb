package service

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	cloud "platform.io/client/cloudprovider"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
	"platform.io/client/record"

	"platform.io/platform/pkg/cloudprovider"
	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "service"

// Event reasons, as upstream's.
const (
	reasonEnsuring        = "EnsuringLoadBalancer"
	reasonEnsured         = "EnsuredLoadBalancer"
	reasonSyncFailed      = "SyncLoadBalancerFailed"
	reasonDeleting        = "DeletingLoadBalancer"
	reasonDeleted         = "DeletedLoadBalancer"
	reasonDeleteFailed    = "DeletingLoadBalancerFailed"
	reasonUpdatedBackends = "UpdatedLoadBalancer"
	reasonUpdateFailed    = "UpdateLoadBalancerFailed"
)

// Options are the loop's flags: --concurrent-service-syncs.
type Options struct{ controller.Syncs }

// NewOptions returns the defaults: 1 worker, as upstream.
func NewOptions() *Options {
	return &Options{controller.NewSyncs("concurrent-service-syncs", 1,
		"The number of services that are allowed to sync concurrently. Larger number = more responsive service management, but more CPU (and network) load.")}
}

// Descriptor registers the loop.
func Descriptor() cloudprovider.Descriptor {
	return cloudprovider.Register(Name, cloudprovider.PartLoadBalancers, NewOptions, func(c cloudprovider.Context, o *Options) (*ctrl.Controller, error) {
		return New(c, *o)
	})
}

// Loop reconciles one service's load balancer.
type Loop struct {
	lg       *zap.Logger
	leading  func() error
	cloud    cloud.Interface
	cluster  string
	clients  *client.Set
	rec      record.Recorder
	services informer.Lister[*corev1.Service]
	nodes    informer.Lister[*corev1.Node]

	// mu guards gone and applied.
	mu sync.Mutex
	// gone are services deleted while they had the finalizer missing
	// (forced), by key, so their load balancer can still go.
	gone map[string]*corev1.Service
	// applied is what this process last gave the provider for each
	// service, so that syncs with nothing new make no call, and a change
	// of nodes only is an UpdateLoadBalancer. A new leader starts empty
	// and ensures every load balancer once.
	applied map[string]applied
}

// applied is a load balancer as last ensured or updated.
type applied struct {
	spec  string
	nodes []cloud.Node
}

// New builds the loop on c's informers.
func New(c cloudprovider.Context, opts Options) (*ctrl.Controller, error) {
	services, err := client.Inform(c.Informers, c.Clients.Services)
	if err != nil {
		return nil, fmt.Errorf("%s: services: %w", Name, err)
	}
	nodes, err := client.Inform(c.Informers, c.Clients.Nodes)
	if err != nil {
		return nil, fmt.Errorf("%s: nodes: %w", Name, err)
	}
	l := &Loop{lg: c.Logger.Named(Name), leading: c.Leading, cloud: c.Cloud, cluster: c.ClusterName, clients: c.Clients, rec: c.Recorder,
		services: services.Lister(), nodes: nodes.Lister(), gone: map[string]*corev1.Service{}, applied: map[string]applied{}}
	loop, err := c.NewLoop(Name, l, opts.Workers)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	if _, err := services.AddEventHandler(informer.ResourceEventHandler[*corev1.Service]{
		OnAdd:    func(s *corev1.Service, _ bool) { loop.Enqueue(informer.Key(s)) },
		OnUpdate: func(_, s *corev1.Service) { loop.Enqueue(informer.Key(s)) },
		OnDelete: func(s *corev1.Service) {
			if s.Spec.Type == corev1.ServiceTypeLoadBalancer && s.Spec.LoadBalancerClass == nil {
				l.mu.Lock()
				l.gone[informer.Key(s)] = s
				l.mu.Unlock()
			}
			loop.Enqueue(informer.Key(s))
		},
	}); err != nil {
		return nil, fmt.Errorf("%s: service handler: %w", Name, err)
	}
	nodeChanged := func(old, cur *corev1.Node) {
		if !nodeSetChanged(old, cur) {
			return
		}
		svcs, err := l.services.List(labels.Everything())
		if err != nil {
			return
		}
		for _, s := range svcs {
			if wantsLoadBalancer(s) {
				loop.Enqueue(informer.Key(s))
			}
		}
	}
	if _, err := nodes.AddEventHandler(informer.ResourceEventHandler[*corev1.Node]{
		OnAdd:    func(n *corev1.Node, initial bool) { nodeChanged(nil, n) },
		OnUpdate: nodeChanged,
		OnDelete: func(n *corev1.Node) { nodeChanged(n, nil) },
	}); err != nil {
		return nil, fmt.Errorf("%s: node handler: %w", Name, err)
	}
	return loop, nil
}

// Reconcile makes the load balancer of the service key match it.
func (l *Loop) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name, _ := strings.Cut(key, "/")
	svc, err := l.services.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, l.deleteGone(ctx, key)
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	lbs, ok := l.cloud.LoadBalancers()
	if !ok {
		return ctrl.Result{}, fmt.Errorf("%w: %s", cloudprovider.ErrPartMissing, cloudprovider.PartLoadBalancers)
	}
	if err := l.leading(); err != nil {
		return ctrl.Result{}, err
	}
	switch {
	case wantsLoadBalancer(svc):
		return ctrl.Result{}, l.ensure(ctx, lbs, svc)
	case ours(svc):
		return ctrl.Result{}, l.cleanup(ctx, lbs, svc)
	}
	return ctrl.Result{}, nil
}

// ensure adds the finalizer, then creates or updates the load balancer and
// writes its ingress.
func (l *Loop) ensure(ctx context.Context, lbs cloud.LoadBalancers, svc *corev1.Service) error {
	if !ours(svc) {
		s := *svc
		s.Finalizers = append(slices.Clone(svc.Finalizers), corev1.FinalizerLoadBalancerCleanup)
		var err error
		if svc, err = l.clients.Services.Namespace(s.Namespace).Update(ctx, &s, meta.WriteOptions{}); err != nil {
			return fmt.Errorf("add finalizer: %w", err)
		}
	}
	list, err := l.nodes.List(labels.Everything())
	if err != nil {
		return err
	}
	key, spec, nodes := informer.Key(svc), fmt.Sprintf("%+v", *toCloud(svc)), backends(list)
	first := len(svc.Status.LoadBalancer.Ingress) == 0
	l.mu.Lock()
	last, known := l.applied[key]
	l.mu.Unlock()
	switch decideSync(last, known, first, spec, nodes) {
	case syncNothing:
		return nil
	case syncNodes:
		if err := lbs.UpdateLoadBalancer(ctx, l.cluster, toCloud(svc), nodes); err != nil {
			l.rec.Eventf(svc, corev1.EventTypeWarning, reasonUpdateFailed, "Error updating load balancer with new hosts: %v", err)
			return fmt.Errorf("update load balancer: %w", err)
		}
		l.remember(key, applied{spec, nodes})
		l.rec.Eventf(svc, corev1.EventTypeNormal, reasonUpdatedBackends, "Updated load balancer with new hosts")
		return nil
	}
	if first {
		l.rec.Eventf(svc, corev1.EventTypeNormal, reasonEnsuring, "Ensuring load balancer")
	}
	st, err := lbs.EnsureLoadBalancer(ctx, l.cluster, toCloud(svc), nodes)
	if err != nil {
		l.rec.Eventf(svc, corev1.EventTypeWarning, reasonSyncFailed, "Error syncing load balancer: %v", err)
		return fmt.Errorf("ensure load balancer: %w", err)
	}
	l.remember(key, applied{spec, nodes})
	want := ingress(st)
	if sameIngress(svc.Status.LoadBalancer, want) {
		return nil
	}
	s := *svc
	s.Status.LoadBalancer = want
	if _, err := l.clients.Services.Namespace(s.Namespace).UpdateStatus(ctx, &s, meta.WriteOptions{}); err != nil {
		return fmt.Errorf("write ingress: %w", err)
	}
	l.rec.Eventf(svc, corev1.EventTypeNormal, reasonEnsured, "Ensured load balancer")
	return nil
}

// remember records what the provider was given for key; a zero applied
// forgets it.
func (l *Loop) remember(key string, a applied) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a.spec == "" {
		delete(l.applied, key)
		return
	}
	l.applied[key] = a
}

// cleanup deletes the load balancer, clears the ingress and removes the
// finalizer, in that order.
func (l *Loop) cleanup(ctx context.Context, lbs cloud.LoadBalancers, svc *corev1.Service) error {
	l.rec.Eventf(svc, corev1.EventTypeNormal, reasonDeleting, "Deleting load balancer")
	if err := lbs.EnsureLoadBalancerDeleted(ctx, l.cluster, toCloud(svc)); err != nil {
		l.rec.Eventf(svc, corev1.EventTypeWarning, reasonDeleteFailed, "Error deleting load balancer: %v", err)
		return fmt.Errorf("delete load balancer: %w", err)
	}
	l.remember(informer.Key(svc), applied{})
	if len(svc.Status.LoadBalancer.Ingress) > 0 && svc.DeletionTimestamp == nil {
		s := *svc
		s.Status.LoadBalancer = corev1.LoadBalancerStatus{}
		var err error
		if svc, err = l.clients.Services.Namespace(s.Namespace).UpdateStatus(ctx, &s, meta.WriteOptions{}); err != nil {
			return fmt.Errorf("clear ingress: %w", err)
		}
	}
	s := *svc
	s.Finalizers = slices.DeleteFunc(slices.Clone(svc.Finalizers), func(f string) bool { return f == corev1.FinalizerLoadBalancerCleanup })
	if _, err := l.clients.Services.Namespace(s.Namespace).Update(ctx, &s, meta.WriteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("remove finalizer: %w", err)
	}
	l.rec.Eventf(svc, corev1.EventTypeNormal, reasonDeleted, "Deleted load balancer")
	return nil
}

// deleteGone deletes the load balancer of a service that disappeared
// without the finalizer holding it.
func (l *Loop) deleteGone(ctx context.Context, key string) error {
	l.mu.Lock()
	svc := l.gone[key]
	l.mu.Unlock()
	if svc == nil {
		return nil
	}
	lbs, ok := l.cloud.LoadBalancers()
	if !ok {
		return fmt.Errorf("%w: %s", cloudprovider.ErrPartMissing, cloudprovider.PartLoadBalancers)
	}
	if err := l.leading(); err != nil {
		return err
	}
	if err := lbs.EnsureLoadBalancerDeleted(ctx, l.cluster, toCloud(svc)); err != nil {
		return fmt.Errorf("delete load balancer of deleted service: %w", err)
	}
	l.mu.Lock()
	if l.gone[key] == svc {
		delete(l.gone, key)
	}
	delete(l.applied, key)
	l.mu.Unlock()
	return nil
}
