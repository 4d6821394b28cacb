package aggregator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/storage"
)

// feed follows one store: a list, then a watch from the list's revision,
// again from a list when the watch ends.
type feed struct {
	kind  string
	store *registry.Store
	lg    *zap.Logger
	// replace, when set, takes each full list.
	replace func(objs []meta.Object)
	// apply takes each change.
	apply func(obj meta.Object, deleted bool)
}

// relistDelay is the wait before listing again after a failure.
const relistDelay = time.Second

var errWatchClosed = errors.New("watch closed")

func (f *feed) run(ctx context.Context) {
	for ctx.Err() == nil {
		rv, err := f.list(ctx)
		if err == nil {
			err = f.watch(ctx, rv)
		}
		if err != nil && ctx.Err() == nil {
			f.lg.Info("aggregator feed restarts", zap.String("kind", f.kind), zap.Error(err))
			select {
			case <-ctx.Done():
			case <-time.After(relistDelay):
			}
		}
	}
}

func (f *feed) list(ctx context.Context) (string, error) {
	l, err := f.store.List(ctx, "", registry.ListOptions{})
	if err != nil {
		return "", fmt.Errorf("list %s: %w", f.kind, err)
	}
	if f.replace != nil {
		objs, err := l.Objects()
		if err != nil {
			return "", fmt.Errorf("decode %s: %w", f.kind, err)
		}
		f.replace(objs)
	}
	return l.ResourceVersion, nil
}

func (f *feed) watch(ctx context.Context, rv string) error {
	w, err := f.store.Watch(ctx, "", registry.WatchOptions{ResourceVersion: rv})
	if err != nil {
		return fmt.Errorf("watch %s: %w", f.kind, err)
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-w.ResultChan():
			if !ok {
				return errWatchClosed
			}
			switch e.Type {
			case storage.Error:
				return fmt.Errorf("watch %s: %w", f.kind, e.Err)
			case storage.Added, storage.Modified, storage.Deleted:
				obj, err := f.store.EventObject(e)
				if err != nil {
					return err
				}
				f.apply(obj, e.Type == storage.Deleted)
			}
		}
	}
}
