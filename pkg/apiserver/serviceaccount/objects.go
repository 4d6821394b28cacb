package serviceaccount

import (
	"context"
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// Objects reads, as they are now, the objects a token names. Reads should
// be cheap (a watch cache): every authenticated request makes them.
type Objects interface {
	ServiceAccount(ctx context.Context, namespace, name string) (*corev1.ServiceAccount, error)
	Pod(ctx context.Context, namespace, name string) (*corev1.Pod, error)
	Secret(ctx context.Context, namespace, name string) (*corev1.Secret, error)
}

// Getter reads one object, from the watch cache when there is one. The
// API server's registry.Store is a Getter.
type Getter interface {
	GetCached(ctx context.Context, namespace, name string) (meta.Object, error)
}

// StoreObjects reads Objects from the API server's own stores.
type StoreObjects struct {
	ServiceAccounts, Pods, Secrets Getter
}

var _ Objects = StoreObjects{}

// ServiceAccount implements Objects.
func (s StoreObjects) ServiceAccount(ctx context.Context, namespace, name string) (*corev1.ServiceAccount, error) {
	return get[corev1.ServiceAccount](ctx, s.ServiceAccounts, namespace, name)
}

// Pod implements Objects.
func (s StoreObjects) Pod(ctx context.Context, namespace, name string) (*corev1.Pod, error) {
	return get[corev1.Pod](ctx, s.Pods, namespace, name)
}

// Secret implements Objects.
func (s StoreObjects) Secret(ctx context.Context, namespace, name string) (*corev1.Secret, error) {
	return get[corev1.Secret](ctx, s.Secrets, namespace, name)
}

func get[T any](ctx context.Context, g Getter, namespace, name string) (*T, error) {
	obj, err := g.GetCached(ctx, namespace, name)
	if err != nil {
		return nil, err
	}
	t, ok := any(obj).(*T)
	if !ok {
		return nil, fmt.Errorf("serviceaccount: store returned %T, want %T", obj, t)
	}
	return t, nil
}
