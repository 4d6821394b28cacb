package serviceaccount

import (
	"context"
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "serviceaccount"

// DefaultName is the account every namespace gets.
const DefaultName = "default"

// Descriptor registers the loop; it has no flags (upstream runs it with
// one worker).
func Descriptor() controller.Descriptor {
	return controller.Descriptor{
		Name: Name,
		New:  func(c controller.Context, _ controller.Options) (run.Runnable, error) { return New(c) },
	}
}

// creator creates service accounts.
type creator interface {
	create(ctx context.Context, sa *corev1.ServiceAccount) error
}

type apiCreator struct{ c *client.Set }

func (a apiCreator) create(ctx context.Context, sa *corev1.ServiceAccount) error {
	_, err := a.c.ServiceAccounts.Namespace(sa.Namespace).Create(ctx, sa, meta.WriteOptions{})
	return err
}

// reconciler ensures the default account of one namespace; keys are
// namespace names.
type reconciler struct {
	namespaces informer.Lister[*corev1.Namespace]
	accounts   informer.Lister[*corev1.ServiceAccount]
	write      creator
}

// Reconcile creates the default account of the namespace key if the
// namespace is active and the account is missing from the cache.
func (r *reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, err := r.namespaces.Get(key)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("namespace %s: %w", key, err)
	}
	if ns.DeletionTimestamp != nil || ns.Status.Phase == corev1.NamespaceTerminating {
		return ctrl.Result{}, nil
	}
	if _, err := r.accounts.Namespace(key).Get(DefaultName); err == nil {
		return ctrl.Result{}, nil
	} else if !apierrors.IsNotFound(err) {
		return ctrl.Result{}, fmt.Errorf("service account %s/%s: %w", key, DefaultName, err)
	}
	sa := &corev1.ServiceAccount{ObjectMeta: meta.ObjectMeta{Name: DefaultName, Namespace: key}}
	err = r.write.create(ctx, sa)
	switch {
	case err == nil, apierrors.IsAlreadyExists(err):
		return ctrl.Result{}, nil
	}
	// A namespace that began its deletion meanwhile refuses the create
	// (Forbidden); the retry finds it Terminating in the cache and stops.
	return ctrl.Result{}, fmt.Errorf("create service account %s/%s: %w", key, DefaultName, err)
}

// New declares the namespace and service account informers and returns
// the worker loop: a namespace is visited when it is added or changes and
// when its default account is deleted.
func New(c controller.Context) (run.Runnable, error) {
	nsInf, err := client.Inform(c.Informers, c.Clients.Namespaces)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	saInf, err := client.Inform(c.Informers, c.Clients.ServiceAccounts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	r := &reconciler{namespaces: nsInf.Lister(), accounts: saInf.Lister(), write: apiCreator{c.Clients}}
	loop, err := c.NewLoop(Name, r, 1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	if _, err := nsInf.AddEventHandler(informer.ResourceEventHandler[*corev1.Namespace]{
		OnAdd:    func(ns *corev1.Namespace, _ bool) { loop.Enqueue(ns.Name) },
		OnUpdate: func(_, ns *corev1.Namespace) { loop.Enqueue(ns.Name) },
	}); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	if _, err := saInf.AddEventHandler(informer.ResourceEventHandler[*corev1.ServiceAccount]{
		OnDelete: func(sa *corev1.ServiceAccount) {
			if sa.Name == DefaultName {
				loop.Enqueue(sa.Namespace)
			}
		},
	}); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return loop, nil
}
