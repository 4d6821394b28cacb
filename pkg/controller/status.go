package controller

import (
	"context"
	"fmt"
	"reflect"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
)

// WriteStatus saves st as the status of obj through c, unless obj already
// has it. obj (read from a cache) is not changed; status returns a pointer
// to an object's status field. An object deleted meanwhile is no error:
// its deletion reaches the loop through the informer.
func WriteStatus[T any, PT client.ObjectPtr[T], S any](ctx context.Context, c *client.Client[T, PT], obj PT, status func(PT) *S, st S) error {
	if reflect.DeepEqual(*status(obj), st) {
		return nil
	}
	cp := PT(new(T))
	*cp = *obj
	*status(cp) = st
	_, err := c.Namespace(obj.GetObjectMeta().Namespace).UpdateStatus(ctx, cp, meta.WriteOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("update status: %w", err)
	}
	return nil
}
