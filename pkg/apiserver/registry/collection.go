package registry

import (
	"context"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// DeleteCollection deletes every object the list options select, one by one
// with the same delete options, and returns how many it deleted or started
// deleting. A failure stops it and is returned.
func (s *Store) DeleteCollection(ctx context.Context, ns string, lo ListOptions, do *meta.DeleteOptions) (int, error) {
	if err := ValidateDeleteOptions(do); err != nil {
		return 0, err
	}
	n := 0
	for {
		list, err := s.List(ctx, ns, lo)
		if err != nil {
			return n, err
		}
		objs, err := list.Objects()
		if err != nil {
			return n, err
		}
		for _, obj := range objs {
			m := obj.GetObjectMeta()
			if _, err := s.Delete(ctx, m.Namespace, m.Name, do); err != nil && !apierrors.IsNotFound(err) {
				return n, err
			}
			n++
		}
		if list.Continue == "" {
			return n, nil
		}
		lo.Continue = list.Continue
	}
}

// Count returns how many objects of the resource are stored (all namespaces).
func (s *Store) Count(ctx context.Context) (int64, error) {
	n, err := s.storage.Count(ctx, s.keyPrefix(""))
	if err != nil {
		return 0, s.interpret(err, "")
	}
	return n, nil
}
