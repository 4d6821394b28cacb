package rbac

import (
	"context"
	"fmt"
	"sync"

	"go.uber.org/zap"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/registry"
)

// Stores are the registry stores of the four RBAC resources.
type Stores struct {
	Roles, ClusterRoles, RoleBindings, ClusterRoleBindings *registry.Store
}

// Policy is the RBAC authorizer with the in-process feed that keeps its
// index current, and the aggregation of ClusterRoles.
type Policy struct {
	*Authorizer
	lg     *zap.Logger
	stores Stores
	// synced is closed once every kind has been listed once.
	synced     chan struct{}
	syncedOnce sync.Once
	// aggregate is signalled when a ClusterRole changes.
	aggregate chan struct{}
}

// New returns the policy over stores; Run feeds it.
func New(lg *zap.Logger, stores Stores) *Policy {
	return &Policy{
		Authorizer: &Authorizer{idx: newIndex()},
		lg:         lg, stores: stores,
		synced:    make(chan struct{}),
		aggregate: make(chan struct{}, 1),
	}
}

// HasSynced reports whether the index holds every object once.
func (p *Policy) HasSynced() bool {
	select {
	case <-p.synced:
		return true
	default:
		return false
	}
}

// WaitSynced blocks until HasSynced or ctx ends.
func (p *Policy) WaitSynced(ctx context.Context) error {
	select {
	case <-p.synced:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run feeds the index from the stores (list, then watch from the list's
// revision; again from a list when a watch ends) and writes aggregated
// ClusterRoles, until ctx ends.
func (p *Policy) Run(ctx context.Context) {
	feeds := []*feed{
		{kind: "Role", store: p.stores.Roles, apply: func(o meta.Object, del bool) {
			r := o.(*rbacv1.Role)
			if del {
				p.idx.deleteRole(r.Namespace, r.Name)
				return
			}
			p.idx.setRole(r)
		}},
		{kind: "ClusterRole", store: p.stores.ClusterRoles, apply: func(o meta.Object, del bool) {
			r := o.(*rbacv1.ClusterRole)
			if del {
				p.idx.deleteClusterRole(r.Name)
			} else {
				p.idx.setClusterRole(r)
			}
			p.kickAggregation()
		}, relisted: p.kickAggregation},
		{kind: "RoleBinding", store: p.stores.RoleBindings, apply: func(o meta.Object, del bool) {
			b := o.(*rbacv1.RoleBinding)
			if del {
				p.idx.deleteRoleBinding(b.Namespace, b.Name)
				return
			}
			p.idx.setRoleBinding(b)
		}},
		{kind: "ClusterRoleBinding", store: p.stores.ClusterRoleBindings, apply: func(o meta.Object, del bool) {
			b := o.(*rbacv1.ClusterRoleBinding)
			if del {
				p.idx.deleteClusterRoleBinding(b.Name)
				return
			}
			p.idx.setClusterRoleBinding(b)
		}},
	}
	var wg sync.WaitGroup
	var listed sync.WaitGroup
	listed.Add(len(feeds))
	for _, f := range feeds {
		f.idx, f.lg = p.idx, p.lg
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.run(ctx, listed.Done)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		listed.Wait()
		p.syncedOnce.Do(func() { close(p.synced) })
		p.runAggregation(ctx)
	}()
	wg.Wait()
}

func (p *Policy) kickAggregation() {
	select {
	case p.aggregate <- struct{}{}:
	default:
	}
}

// feed keeps one kind of the index current.
type feed struct {
	kind  string
	store *registry.Store
	apply func(obj meta.Object, deleted bool)
	// relisted, when set, runs after a list replaced the kind's objects.
	relisted func()
	idx      *index
	lg       *zap.Logger
}

// run follows the store until ctx ends, calling listed once after the
// first list.
func (f *feed) run(ctx context.Context, listed func()) {
	var first sync.Once
	registry.Follow(ctx, f.lg, f.store, registry.Follower{
		Replace: func(objs []meta.Object) {
			f.idx.replace(f.kind, objs)
			if f.relisted != nil {
				f.relisted()
			}
			first.Do(listed)
		},
		Apply: f.apply,
	})
}

// StoredRoleRefRules returns the rules of the role ref names for a binding
// in namespace as stored, false when it does not exist. It reads the
// store (its watch cache has every write this server acknowledged, else
// etcd), not the index, which follows its watches a moment behind: a
// binding written right after its role must find the role, as upstream's
// escalation check reads roles from storage.
func (p *Policy) StoredRoleRefRules(ctx context.Context, ref rbacv1.RoleRef, namespace string) ([]rbacv1.PolicyRule, bool, error) {
	var obj meta.Object
	var err error
	switch ref.Kind {
	case "ClusterRole":
		obj, err = p.stores.ClusterRoles.GetCached(ctx, "", ref.Name)
	case "Role":
		obj, err = p.stores.Roles.GetCached(ctx, namespace, ref.Name)
	default:
		return nil, false, nil
	}
	if apierrors.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s %q: %w", ref.Kind, ref.Name, err)
	}
	switch r := obj.(type) {
	case *rbacv1.ClusterRole:
		return r.Rules, true, nil
	case *rbacv1.Role:
		return r.Rules, true, nil
	}
	return nil, false, fmt.Errorf("read %s %q: unexpected %T", ref.Kind, ref.Name, obj)
}
