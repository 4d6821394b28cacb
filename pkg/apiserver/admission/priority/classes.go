package priority

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	schedulingv1 "platform.io/client/api/scheduling/v1"

	"platform.io/platform/pkg/apiserver/registry"
)

// Classes is where the plugin reads priority classes. The classes it
// returns may be shared with other readers: the plugin only looks at them.
type Classes interface {
	// Get returns the class named name, or a NotFound API error.
	Get(ctx context.Context, name string) (*schedulingv1.PriorityClass, error)
	// List returns every class.
	List(ctx context.Context) ([]*schedulingv1.PriorityClass, error)
}

// storeClasses reads classes from the priorityclasses store, through its
// watch cache when it has one, which decodes each version of a class once
// (the plugin reads every class on each pod create without a class name).
type storeClasses struct {
	store *registry.Store
}

var _ Classes = storeClasses{}

// NewStoreClasses returns the Classes of the priorityclasses store.
func NewStoreClasses(store *registry.Store) Classes { return storeClasses{store: store} }

func (c storeClasses) Get(ctx context.Context, name string) (*schedulingv1.PriorityClass, error) {
	obj, err := c.store.GetShared(ctx, "", name)
	if err != nil {
		return nil, err
	}
	pc, ok := obj.(*schedulingv1.PriorityClass)
	if !ok {
		return nil, fmt.Errorf("priorityclasses store returned %T", obj)
	}
	return pc, nil
}

func (c storeClasses) List(ctx context.Context) ([]*schedulingv1.PriorityClass, error) {
	l, err := c.store.ListCached(ctx, "")
	if err != nil {
		return nil, err
	}
	objs, err := l.SharedObjects()
	if err != nil {
		return nil, err
	}
	out := make([]*schedulingv1.PriorityClass, 0, len(objs))
	for _, obj := range objs {
		pc, ok := obj.(*schedulingv1.PriorityClass)
		if !ok {
			return nil, fmt.Errorf("priorityclasses store returned %T", obj)
		}
		out = append(out, pc)
	}
	return out, nil
}

// NewFromStore returns the plugin reading classes from the priorityclasses
// store, which must be served.
func NewFromStore(lg *zap.Logger, store *registry.Store) (*Plugin, error) {
	if store == nil {
		return nil, fmt.Errorf("%s is not served", ClassesResource)
	}
	return New(lg, NewStoreClasses(store)), nil
}
