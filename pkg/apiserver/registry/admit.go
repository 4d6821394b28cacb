package registry

import (
	"context"
	"reflect"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/component/authn"
)

// write describes one write for admission: what the store knows of the
// request besides the objects.
type write struct {
	op          admission.Operation
	subresource string
	ns, name    string
	options     any
	dryRun      bool
	// applied marks a server-side apply, whose managedFields the apply
	// itself computed.
	applied bool
}

// attributes returns the admission attributes of w on obj (nil on a
// delete) replacing old (nil on a create).
func (s *Store) attributes(ctx context.Context, w write, obj, old meta.Object) *admission.Attributes {
	u, _ := authn.UserFrom(ctx)
	kind := s.Resource.GroupVersionKind()
	if s.Resource.Actions[w.subresource] != nil {
		kind = s.Resource.ActionKind(w.subresource)
	}
	return &admission.Attributes{
		Operation: w.op, Kind: kind,
		Resource:    meta.GroupVersionResource{Group: s.Resource.Group, Version: s.Resource.Version, Resource: s.Resource.Name},
		Subresource: w.subresource, Namespace: w.ns, Name: w.name,
		Object: obj, OldObject: old, Options: w.options, DryRun: w.dryRun, User: u,
	}
}

// actionKey marks the context of an action's own writes.
type actionKey struct{}

// admitter returns the chain to run on a write in ctx: none for the writes
// an action makes after its body was admitted (binding a pod writes the
// pod without admitting a pod update, as upstream does).
func (s *Store) admitter(ctx context.Context) admission.Admitter {
	if ctx.Value(actionKey{}) != nil {
		return nil
	}
	return s.admit
}

// mutate runs the mutating plugins on obj and returns the object they
// leave, which is obj unless one replaced it. Callers apply the strategy's
// defaults again afterwards, as a plugin may add fields that have defaults.
func (s *Store) mutate(ctx context.Context, w write, obj, old meta.Object) (meta.Object, error) {
	admit := s.admitter(ctx)
	if admit == nil {
		return obj, nil
	}
	a := s.attributes(ctx, w, obj, old)
	if err := admit.Admit(ctx, a); err != nil {
		return nil, err
	}
	return a.Object, nil
}

// validateAdmission runs the validating plugins on the final obj.
func (s *Store) validateAdmission(ctx context.Context, w write, obj, old meta.Object) error {
	admit := s.admitter(ctx)
	if admit == nil {
		return nil
	}
	return admit.Validate(ctx, s.attributes(ctx, w, obj, old))
}

// AdmitAction runs the whole chain on the body of a POST to the
// subresource sub (pods/binding, serviceaccounts/token) of the object
// ns/name, as a create of that subresource.
func (s *Store) AdmitAction(ctx context.Context, sub, ns, name string, body meta.Object, dryRun bool) error {
	admit := s.admitter(ctx)
	if admit == nil {
		return nil
	}
	w := write{op: admission.Create, subresource: sub, ns: ns, name: name, options: createOptions(dryRun), dryRun: dryRun}
	a := s.attributes(ctx, w, body, nil)
	if err := admit.Admit(ctx, a); err != nil {
		return err
	}
	if a.Object != body {
		// The action reads the body it decoded: copy a replacement into it.
		reflect.ValueOf(body).Elem().Set(reflect.ValueOf(a.Object).Elem())
		a.Object = body
	}
	return admit.Validate(ctx, a)
}

// ActionContext returns the context an action runs in: the writes it makes
// through stores are not admitted again, since AdmitAction admitted the
// action itself.
func ActionContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, actionKey{}, true)
}

func dryRunValues(dryRun bool) []string {
	if dryRun {
		return []string{meta.DryRunAll}
	}
	return nil
}

func createOptions(dryRun bool) *meta.CreateOptions {
	return &meta.CreateOptions{TypeMeta: optionsType("CreateOptions"), DryRun: dryRunValues(dryRun)}
}

// updateOptions returns the options of an update: PatchOptions for a patch.
func updateOptions(opts UpdateOptions) any {
	if opts.Patch {
		return &meta.PatchOptions{TypeMeta: optionsType("PatchOptions"), DryRun: dryRunValues(opts.DryRun)}
	}
	return &meta.UpdateOptions{TypeMeta: optionsType("UpdateOptions"), DryRun: dryRunValues(opts.DryRun)}
}

func deleteOptions(o *meta.DeleteOptions) *meta.DeleteOptions {
	c := *o
	c.TypeMeta = optionsType("DeleteOptions")
	return &c
}

func optionsType(kind string) meta.TypeMeta {
	return meta.TypeMeta{APIVersion: meta.GroupName + "/v1", Kind: kind}
}
