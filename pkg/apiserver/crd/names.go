package crd

import (
	"fmt"

	apiextv1 "platform.io/client/api/apiextensions/v1"

	"platform.io/platform/pkg/apiserver/registry"
)

// acceptNames decides whether crd's spec.names can be served: none may be
// taken in its group by another definition's accepted names or by a
// built-in resource. A refusal carries upstream's reason and message.
func acceptNames(crd *apiextv1.CustomResourceDefinition, others []*apiextv1.CustomResourceDefinition, builtin []*registry.Resource) (ok bool, reason, message string) {
	resources, kinds := map[string]bool{}, map[string]bool{}
	for _, o := range others {
		if o.Spec.Group != crd.Spec.Group || o.Name == crd.Name {
			continue
		}
		n := o.Status.AcceptedNames
		for _, s := range append([]string{n.Plural, n.Singular}, n.ShortNames...) {
			resources[s] = true
		}
		kinds[n.Kind], kinds[n.ListKind] = true, true
	}
	for _, r := range builtin {
		if r.Group != crd.Spec.Group {
			continue
		}
		for _, s := range append([]string{r.Name, r.Singular}, r.ShortNames...) {
			resources[s] = true
		}
		kinds[r.Kind], kinds[r.ListKindName()] = true, true
	}
	delete(resources, "")
	delete(kinds, "")
	n := crd.Spec.Names
	inUse := func(s string) string { return fmt.Sprintf("%q is already in use", s) }
	switch {
	case resources[n.Plural]:
		return false, "PluralConflict", inUse(n.Plural)
	case resources[n.Singular]:
		return false, "SingularConflict", inUse(n.Singular)
	case kinds[n.Kind]:
		return false, "KindConflict", inUse(n.Kind)
	case kinds[n.ListKind]:
		return false, "ListKindConflict", inUse(n.ListKind)
	}
	for _, s := range n.ShortNames {
		if resources[s] {
			return false, "ShortNamesConflict", inUse(s)
		}
	}
	return true, "", ""
}
