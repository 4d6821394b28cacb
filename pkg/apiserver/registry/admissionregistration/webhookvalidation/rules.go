package webhookvalidation

import (
	"strings"

	arv1 "platform.io/client/api/admissionregistration/v1"

	"platform.io/platform/pkg/apiserver/validation/field"
)

var operations = []arv1.OperationType{arv1.OperationAll, arv1.Create, arv1.Update, arv1.Delete, arv1.Connect}

func rule(r arv1.RuleWithOperations, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	op := p.Child("operations")
	if len(r.Operations) == 0 {
		errs = append(errs, field.Required(op, ""))
	}
	if len(r.Operations) > 1 && hasString(r.Operations, arv1.OperationAll) {
		errs = append(errs, field.Invalid(op, r.Operations, "if '*' is present, must not specify other operations"))
	}
	for i, o := range r.Operations {
		errs = append(errs, oneOf(op.Index(i), o, operations)...)
	}
	errs = append(errs, list(r.APIGroups, true, "API groups", p.Child("apiGroups"))...)
	errs = append(errs, list(r.APIVersions, false, "API versions", p.Child("apiVersions"))...)
	errs = append(errs, resources(r.Resources, p.Child("resources"))...)
	if r.Scope != nil {
		errs = append(errs, oneOf(p.Child("scope"), *r.Scope, []arv1.ScopeType{arv1.ClusterScope, arv1.NamespacedScope, arv1.AllScopes})...)
	}
	return errs
}

// list checks apiGroups or apiVersions: required, "*" alone, and (for
// versions) no empty entries; the core group is "".
func list(vs []string, emptyOK bool, what string, p *field.Path) field.ErrorList {
	if len(vs) == 0 {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	if len(vs) > 1 && hasString(vs, "*") {
		errs = append(errs, field.Invalid(p, vs, "if '*' is present, must not specify other "+what))
	}
	if !emptyOK {
		for i, v := range vs {
			if v == "" {
				errs = append(errs, field.Required(p.Index(i), ""))
			}
		}
	}
	return errs
}

// resources checks upstream's resource rules: "*/*" stands alone, "*"
// excludes other resources, "r/*" excludes other subresources of r, and
// "*/x" excludes other resources' x.
func resources(rs []string, p *field.Path) field.ErrorList {
	if len(rs) == 0 {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	if len(rs) > 1 && hasString(rs, "*/*") {
		errs = append(errs, field.Invalid(p, rs, "if '*/*' is present, must not specify other resources"))
	}
	subs := map[string][]string{} // resource -> its subresources ("" for the resource itself)
	for i, r := range rs {
		if r == "" {
			errs = append(errs, field.Required(p.Index(i), ""))
			continue
		}
		res, sub, _ := strings.Cut(r, "/")
		if res == "" || (strings.Contains(r, "/") && sub == "") {
			errs = append(errs, field.Invalid(p.Index(i), r, "resource and subresource must not be empty"))
			continue
		}
		subs[res] = append(subs[res], sub)
	}
	if len(subs["*"]) > 0 {
		for i, r := range rs {
			res, sub, _ := strings.Cut(r, "/")
			if res != "*" && hasString(subs["*"], sub) {
				errs = append(errs, field.Invalid(p.Index(i), r, "if '*/"+sub+"' (or '*' for resources) is present, must not specify "+r))
			}
		}
	}
	for res, ss := range subs {
		if len(ss) > 1 && hasString(ss, "*") {
			for i, r := range rs {
				if strings.HasPrefix(r, res+"/") && r != res+"/*" {
					errs = append(errs, field.Invalid(p.Index(i), r, "if '"+res+"/*' is present, must not specify "+r))
				}
			}
		}
	}
	return errs
}

func hasString[T ~string](vs []T, s T) bool {
	for _, v := range vs {
		if v == s {
			return true
		}
	}
	return false
}
