package rbac

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.uber.org/zap"

	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/component/authn"
)

// AggregatedRules returns the rules of the ClusterRole named name with
// rule: the rules of every other ClusterRole some selector matches, in
// name order, each rule once, as upstream's clusterrole-aggregation
// controller writes them.
func AggregatedRules(name string, rule *rbacv1.AggregationRule, all []*rbacv1.ClusterRole) ([]rbacv1.PolicyRule, error) {
	var sels []labels.Selector
	for i := range rule.ClusterRoleSelectors {
		s, err := labels.FromLabelSelector(&rule.ClusterRoleSelectors[i])
		if err != nil {
			return nil, fmt.Errorf("clusterrole %s: selector %d: %w", name, i, err)
		}
		sels = append(sels, s)
	}
	sorted := slices.Clone(all)
	slices.SortFunc(sorted, func(a, b *rbacv1.ClusterRole) int { return strings.Compare(a.Name, b.Name) })
	rules := []rbacv1.PolicyRule{}
	for _, cr := range sorted {
		if cr.Name == name || !slices.ContainsFunc(sels, func(s labels.Selector) bool { return s.Matches(labels.Set(cr.Labels)) }) {
			continue
		}
		for _, r := range cr.Rules {
			if !slices.ContainsFunc(rules, func(have rbacv1.PolicyRule) bool { return reflect.DeepEqual(have, r) }) {
				rules = append(rules, r)
			}
		}
	}
	return rules, nil
}

// runAggregation writes the aggregated rules into every ClusterRole with an
// aggregationRule whenever a ClusterRole changes. It is level-based and
// idempotent: each API server computes the same rules from the same roles,
// and a write that changes nothing is skipped by the store.
func (p *Policy) runAggregation(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.aggregate:
		}
		all := p.idx.clusterRoleList()
		for _, cr := range all {
			if cr.AggregationRule == nil {
				continue
			}
			if err := p.aggregateOne(ctx, cr, all); err != nil && ctx.Err() == nil {
				p.lg.Warn("cannot aggregate ClusterRole", zap.String("name", cr.Name), zap.Error(err))
			}
		}
	}
}

func (p *Policy) aggregateOne(ctx context.Context, cr *rbacv1.ClusterRole, all []*rbacv1.ClusterRole) error {
	rules, err := AggregatedRules(cr.Name, cr.AggregationRule, all)
	if err != nil {
		return err
	}
	if equalRules(cr.Rules, rules) {
		return nil
	}
	ctx = authn.WithUser(ctx, APIServerUser())
	_, _, err = p.stores.ClusterRoles.Update(ctx, "", cr.Name, func(_ context.Context, cur meta.Object) (meta.Object, error) {
		c := cur.(*rbacv1.ClusterRole)
		if c.AggregationRule == nil {
			return c, nil
		}
		c.Rules = rules
		return c, nil
	}, registry.UpdateOptions{Patch: true})
	return err
}

func equalRules(a, b []rbacv1.PolicyRule) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}
