package endpoints

import (
	"fmt"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/fields"
	"platform.io/client/api/labels"

	"platform.io/platform/pkg/apiserver/registry"
)

// selectors parses the labelSelector and fieldSelector parameters. A
// malformed selector or a field the resource cannot select on is a 400.
func selectors(res *registry.Resource, labelSel, fieldSel string) (labels.Selector, fields.Selector, error) {
	ls, err := labels.Parse(labelSel)
	if err != nil {
		return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("unable to parse labelSelector %q: %v", labelSel, err))
	}
	fs, err := fields.Parse(fieldSel)
	if err != nil {
		return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("unable to parse fieldSelector %q: %v", fieldSel, err))
	}
	known := res.Fields(res.New())
	for _, req := range fs.Requirements() {
		if _, ok := known[req.Field]; !ok {
			return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("field label not supported: %s", req.Field))
		}
	}
	return ls, fs, nil
}
