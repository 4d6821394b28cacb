package resourcequota

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

func TestResource(t *testing.T) {
	r := Resource()
	if r.Name != "resourcequotas" || r.Kind != "ResourceQuota" || !r.Namespaced || !r.HasStatus || len(r.ShortNames) != 1 || r.ShortNames[0] != "quota" {
		t.Fatalf("bad row: %+v", r)
	}
}

func TestValidate(t *testing.T) {
	sel := func(reqs ...corev1.ScopedResourceSelectorRequirement) *corev1.ScopeSelector {
		return &corev1.ScopeSelector{MatchExpressions: reqs}
	}
	req := func(s corev1.ResourceQuotaScope, op corev1.ScopeSelectorOperator, v ...string) corev1.ScopedResourceSelectorRequirement {
		return corev1.ScopedResourceSelectorRequirement{ScopeName: s, Operator: op, Values: v}
	}
	cases := []struct {
		name  string
		spec  corev1.ResourceQuotaSpec
		st    corev1.ResourceQuotaStatus
		typ   field.Type
		field string
	}{
		{name: "valid", spec: corev1.ResourceQuotaSpec{Hard: rl("pods", "10", "requests.cpu", "2", "limits.memory", "4Gi", "count/deployments.apps", "3", "requests.hugepages-2Mi", "1Gi")}},
		{name: "valid scopes", spec: corev1.ResourceQuotaSpec{Hard: rl("pods", "1", "cpu", "1"), Scopes: []corev1.ResourceQuotaScope{"NotTerminating", "NotBestEffort"}}},
		{name: "valid priority selector", spec: corev1.ResourceQuotaSpec{Hard: rl("pods", "1"),
			ScopeSelector: sel(req("PriorityClass", "In", "high"))}},
		{name: "unknown resource", spec: corev1.ResourceQuotaSpec{Hard: rl("widgets", "1")}, typ: field.TypeInvalid, field: "spec.hard[widgets]"},
		{name: "fractional count", spec: corev1.ResourceQuotaSpec{Hard: rl("pods", "1500m")}, typ: field.TypeInvalid, field: "spec.hard[pods]"},
		{name: "negative", spec: corev1.ResourceQuotaSpec{Hard: rl("cpu", "-1")}, typ: field.TypeInvalid, field: "spec.hard[cpu]"},
		{name: "bad used", st: corev1.ResourceQuotaStatus{Used: rl("secrets", "-2")}, typ: field.TypeInvalid, field: "status.used[secrets]"},
		{name: "unknown scope", spec: corev1.ResourceQuotaSpec{Scopes: []corev1.ResourceQuotaScope{"Sometimes"}}, typ: field.TypeInvalid, field: "spec.scopes"},
		{name: "conflicting scopes", spec: corev1.ResourceQuotaSpec{Scopes: []corev1.ResourceQuotaScope{"Terminating", "NotTerminating"}}, typ: field.TypeInvalid, field: "spec.scopes"},
		{name: "best effort with cpu", spec: corev1.ResourceQuotaSpec{Hard: rl("cpu", "1"), Scopes: []corev1.ResourceQuotaScope{"BestEffort"}}, typ: field.TypeInvalid, field: "spec.scopes"},
		{name: "terminating with secrets", spec: corev1.ResourceQuotaSpec{Hard: rl("secrets", "1"), Scopes: []corev1.ResourceQuotaScope{"Terminating"}}, typ: field.TypeInvalid, field: "spec.scopes"},
		{name: "selector In without values", spec: corev1.ResourceQuotaSpec{ScopeSelector: sel(req("PriorityClass", "In"))},
			typ: field.TypeRequired, field: "spec.scopeSelector.matchExpressions.values"},
		{name: "selector Exists with values", spec: corev1.ResourceQuotaSpec{ScopeSelector: sel(req("PriorityClass", "Exists", "x"))},
			typ: field.TypeInvalid, field: "spec.scopeSelector.matchExpressions.values"},
		{name: "selector terminating not Exists", spec: corev1.ResourceQuotaSpec{ScopeSelector: sel(req("Terminating", "DoesNotExist"))},
			typ: field.TypeInvalid, field: "spec.scopeSelector.matchExpressions.operator"},
		{name: "selector bad operator", spec: corev1.ResourceQuotaSpec{ScopeSelector: sel(req("PriorityClass", "Near", "x"))},
			typ: field.TypeInvalid, field: "spec.scopeSelector.matchExpressions.operator"},
		{name: "selector conflicting", spec: corev1.ResourceQuotaSpec{ScopeSelector: sel(req("BestEffort", "Exists"), req("NotBestEffort", "Exists"))},
			typ: field.TypeInvalid, field: "spec.scopeSelector.matchExpressions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := Validate(&corev1.ResourceQuota{Spec: c.spec, Status: c.st})
			if msg := corevalidation.Expect(errs, c.typ, c.field); msg != "" {
				t.Fatal(msg)
			}
		})
	}
}

func TestTableRow(t *testing.T) {
	q := &corev1.ResourceQuota{Status: corev1.ResourceQuotaStatus{
		Hard: rl("pods", "4", "requests.cpu", "2", "limits.cpu", "4", "limits.memory", "1Gi"),
		Used: rl("pods", "1", "requests.cpu", "500m", "limits.cpu", "1"),
	}}
	q.Name = "compute"
	row := tableColumns.Row(q)
	want := []any{"compute", row[1], "pods: 1/4, requests.cpu: 500m/2", "limits.cpu: 1/4, limits.memory: 0/1Gi"}
	if diff := cmp.Diff(want, row); diff != "" {
		t.Errorf("row (-want +got):\n%s", diff)
	}
}
