package endpoints

import (
	"fmt"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/fields"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// predicateFor builds the filter of a list from its selectors; nil when
// both are empty. A malformed selector or an unknown field is a 400.
func predicateFor(res *registry.Resource, labelSel, fieldSel string) (func(meta.Object) bool, error) {
	ls, err := labels.Parse(labelSel)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("unable to parse labelSelector %q: %v", labelSel, err))
	}
	fs, err := fields.Parse(fieldSel)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("unable to parse fieldSelector %q: %v", fieldSel, err))
	}
	if ls.Empty() && fs.Empty() {
		return nil, nil
	}
	known := res.Fields(res.New())
	for _, req := range fs.Requirements() {
		if _, ok := known[req.Field]; !ok {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("field label not supported: %s", req.Field))
		}
	}
	return func(obj meta.Object) bool {
		return ls.Matches(labels.Set(obj.GetObjectMeta().Labels)) && fs.Matches(fields.Set(res.Fields(obj)))
	}, nil
}
