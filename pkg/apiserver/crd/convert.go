package crd

import (
	"context"
	"fmt"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/conversion"
	"platform.io/platform/pkg/apiserver/crd/instance"
	"platform.io/platform/pkg/apiserver/registry"
)

// side is one end of a conversion: a version's row and its schema's rules.
type side struct {
	row   *registry.Resource
	rules schemaRules
}

// webhookConversion converts the objects of served to and from storage
// through hook. A converted object is then pruned and defaulted by the
// schema of the version it is in now, as upstream coerces a webhook's
// answer.
func webhookConversion(hook *conversion.Webhook, served, storage side) *registry.Conversion {
	to := func(ctx context.Context, objs []meta.Object, src, dst side) ([]meta.Object, error) {
		in := make([]*instance.Object, len(objs))
		for i, o := range objs {
			io, ok := o.(*instance.Object)
			if !ok {
				return nil, fmt.Errorf("crd: cannot convert %T", o)
			}
			// The object is in src's version whatever its body said.
			io.APIVersion, io.Kind = src.row.GroupVersion().String(), src.row.Kind
			in[i] = io
		}
		newObj := func() *instance.Object { return dst.row.New().(*instance.Object) }
		conv, err := hook.Convert(ctx, in, dst.row.GroupVersion().String(), newObj)
		if err != nil {
			return nil, err
		}
		out := make([]meta.Object, len(conv))
		for i, o := range conv {
			dst.rules.normalize(o)
			out[i] = o
		}
		return out, nil
	}
	one := func(src, dst side) func(context.Context, meta.Object) (meta.Object, error) {
		return func(ctx context.Context, obj meta.Object) (meta.Object, error) {
			out, err := to(ctx, []meta.Object{obj}, src, dst)
			if err != nil {
				return nil, err
			}
			return out[0], nil
		}
	}
	return &registry.Conversion{
		ToStorage:   one(served, storage),
		FromStorage: one(storage, served),
		FromStorageList: func(ctx context.Context, stored []meta.Object) ([]meta.Object, error) {
			return to(ctx, stored, storage, served)
		},
		ReadBack: true,
	}
}
