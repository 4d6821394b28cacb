package bootstrap

import (
	"context"
	"fmt"
	"slices"

	"go.uber.org/zap"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/authz/rbac"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/component/authn"
)

// Reconcile makes the stores hold policy: missing objects are created;
// existing ones not annotated autoupdate "false" get the labels,
// annotations, rules (or aggregation selectors) and subjects they lack; a
// binding whose roleRef differs is recreated, since roleRef is immutable.
// Nothing an operator added is removed.
func Reconcile(ctx context.Context, lg *zap.Logger, stores rbac.Stores, policy Policy) error {
	ctx = authn.WithUser(ctx, rbac.APIServerUser())
	for i := range policy.ClusterRoles {
		want := &policy.ClusterRoles[i]
		if err := reconcileObject(ctx, lg, stores.ClusterRoles, "", want.Name, want, mergeClusterRole); err != nil {
			return err
		}
	}
	for i := range policy.Roles {
		want := &policy.Roles[i]
		if err := reconcileObject(ctx, lg, stores.Roles, want.Namespace, want.Name, want, mergeRole); err != nil {
			return err
		}
	}
	for i := range policy.ClusterRoleBindings {
		want := &policy.ClusterRoleBindings[i]
		if err := reconcileBinding(ctx, lg, stores.ClusterRoleBindings, "", want.Name, want, func(o meta.Object) *rbacv1.RoleRef { return &o.(*rbacv1.ClusterRoleBinding).RoleRef }, mergeClusterRoleBinding); err != nil {
			return err
		}
	}
	for i := range policy.RoleBindings {
		want := &policy.RoleBindings[i]
		if err := reconcileBinding(ctx, lg, stores.RoleBindings, want.Namespace, want.Name, want, func(o meta.Object) *rbacv1.RoleRef { return &o.(*rbacv1.RoleBinding).RoleRef }, mergeRoleBinding); err != nil {
			return err
		}
	}
	return nil
}

// mergeFunc adds what want has and cur lacks to cur, reporting whether it
// changed anything.
type mergeFunc func(cur, want meta.Object) bool

func reconcileObject(ctx context.Context, lg *zap.Logger, s *registry.Store, ns, name string, want meta.Object, merge mergeFunc) error {
	cur, err := s.Get(ctx, ns, name)
	if apierrors.IsNotFound(err) {
		_, err = s.Create(ctx, clone(want), false)
		if err == nil {
			lg.Info("created bootstrap RBAC object", zap.String("resource", s.Resource.Name), zap.String("name", name))
		}
		if err == nil || apierrors.IsAlreadyExists(err) {
			return nil
		}
	}
	if err != nil {
		return fmt.Errorf("reconcile %s %s: %w", s.Resource.Name, name, err)
	}
	if !autoUpdate(cur) {
		return nil
	}
	changed := false
	_, _, err = s.Update(ctx, ns, name, func(_ context.Context, cur meta.Object) (meta.Object, error) {
		changed = autoUpdate(cur) && merge(cur, want)
		return cur, nil
	}, registry.UpdateOptions{Patch: true})
	if err != nil {
		return fmt.Errorf("reconcile %s %s: %w", s.Resource.Name, name, err)
	}
	if changed {
		lg.Info("reconciled bootstrap RBAC object", zap.String("resource", s.Resource.Name), zap.String("name", name))
	}
	return nil
}

// reconcileBinding is reconcileObject, but a binding to another role is
// deleted and created anew (unless autoupdate is "false").
func reconcileBinding(ctx context.Context, lg *zap.Logger, s *registry.Store, ns, name string, want meta.Object, ref func(meta.Object) *rbacv1.RoleRef, merge mergeFunc) error {
	cur, err := s.Get(ctx, ns, name)
	if err == nil && autoUpdate(cur) && *ref(cur) != *ref(want) {
		uid := cur.GetObjectMeta().UID
		if _, err := s.Delete(ctx, ns, name, &meta.DeleteOptions{Preconditions: &meta.Preconditions{UID: &uid}}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("replace %s %s: %w", s.Resource.Name, name, err)
		}
		lg.Info("replacing bootstrap RBAC binding with another roleRef", zap.String("resource", s.Resource.Name), zap.String("name", name))
	}
	return reconcileObject(ctx, lg, s, ns, name, want, merge)
}

func autoUpdate(o meta.Object) bool {
	return o.GetObjectMeta().Annotations[rbacv1.AutoUpdateAnnotationKey] != "false"
}

func clone(o meta.Object) meta.Object {
	switch v := o.(type) {
	case *rbacv1.ClusterRole:
		c := *v
		return &c
	case *rbacv1.Role:
		c := *v
		return &c
	case *rbacv1.ClusterRoleBinding:
		c := *v
		return &c
	case *rbacv1.RoleBinding:
		c := *v
		return &c
	}
	panic(fmt.Sprintf("bootstrap: unexpected %T", o))
}

// mergeMeta adds missing labels and annotations.
func mergeMeta(cur, want *meta.ObjectMeta) bool {
	changed := false
	add := func(dst *map[string]string, src map[string]string) {
		for k, v := range src {
			if _, ok := (*dst)[k]; ok {
				continue
			}
			if *dst == nil {
				*dst = map[string]string{}
			}
			(*dst)[k], changed = v, true
		}
	}
	add(&cur.Labels, want.Labels)
	add(&cur.Annotations, want.Annotations)
	return changed
}

// mergeRules appends the rules of want that cur does not cover.
func mergeRules(cur *[]rbacv1.PolicyRule, want []rbacv1.PolicyRule) bool {
	changed := false
	for _, r := range want {
		if ok, _ := rbac.Covers(*cur, []rbacv1.PolicyRule{r}); !ok {
			*cur = append(*cur, r)
			changed = true
		}
	}
	return changed
}

func mergeClusterRole(c, w meta.Object) bool {
	cur, want := c.(*rbacv1.ClusterRole), w.(*rbacv1.ClusterRole)
	changed := mergeMeta(&cur.ObjectMeta, &want.ObjectMeta)
	if want.AggregationRule != nil {
		// The rules of an aggregated role are the aggregation's to write.
		if cur.AggregationRule == nil {
			cur.AggregationRule = &rbacv1.AggregationRule{}
		}
		for _, sel := range want.AggregationRule.ClusterRoleSelectors {
			if !slices.ContainsFunc(cur.AggregationRule.ClusterRoleSelectors, func(s meta.LabelSelector) bool { return sameSelector(s, sel) }) {
				cur.AggregationRule.ClusterRoleSelectors = append(cur.AggregationRule.ClusterRoleSelectors, sel)
				changed = true
			}
		}
		return changed
	}
	return mergeRules(&cur.Rules, want.Rules) || changed
}

func sameSelector(a, b meta.LabelSelector) bool {
	if len(a.MatchLabels) != len(b.MatchLabels) || len(a.MatchExpressions)+len(b.MatchExpressions) > 0 {
		return false
	}
	for k, v := range a.MatchLabels {
		if b.MatchLabels[k] != v {
			return false
		}
	}
	return true
}

func mergeRole(c, w meta.Object) bool {
	cur, want := c.(*rbacv1.Role), w.(*rbacv1.Role)
	changed := mergeMeta(&cur.ObjectMeta, &want.ObjectMeta)
	return mergeRules(&cur.Rules, want.Rules) || changed
}

func mergeSubjects(cur *[]rbacv1.Subject, want []rbacv1.Subject) bool {
	changed := false
	for _, s := range want {
		if !slices.Contains(*cur, s) {
			*cur = append(*cur, s)
			changed = true
		}
	}
	return changed
}

func mergeClusterRoleBinding(c, w meta.Object) bool {
	cur, want := c.(*rbacv1.ClusterRoleBinding), w.(*rbacv1.ClusterRoleBinding)
	changed := mergeMeta(&cur.ObjectMeta, &want.ObjectMeta)
	return mergeSubjects(&cur.Subjects, want.Subjects) || changed
}

func mergeRoleBinding(c, w meta.Object) bool {
	cur, want := c.(*rbacv1.RoleBinding), w.(*rbacv1.RoleBinding)
	changed := mergeMeta(&cur.ObjectMeta, &want.ObjectMeta)
	return mergeSubjects(&cur.Subjects, want.Subjects) || changed
}
