package registry

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/storage"
)

// Follower takes what Follow reads from a store.
type Follower struct {
	// Replace, when set, takes each full list: the store's objects at the
	// list's revision, which the changes after it then build on.
	Replace func(objs []meta.Object)
	// Apply takes each change after the list.
	Apply func(obj meta.Object, deleted bool)
}

// followRelistDelay is the wait before listing again after a failure.
const followRelistDelay = time.Second

var errFollowWatchClosed = errors.New("registry: watch closed")

// Follow keeps f current with s inside the API server, until ctx ends: a
// list, then a watch from the list's revision, again from a list when the
// watch ends or fails (after a second, logged on lg). It is the in-process
// informer of the server's own parts that index stored objects (the RBAC
// policy, the Node authorizer's pods, the aggregator's APIServices).
func Follow(ctx context.Context, lg *zap.Logger, s *Store, f Follower) {
	for ctx.Err() == nil {
		rv, err := s.followList(ctx, f)
		if err == nil {
			err = s.followWatch(ctx, rv, f)
		}
		if err != nil && ctx.Err() == nil {
			lg.Info("store feed restarts", zap.String("resource", s.Resource.GroupResource().String()), zap.Error(err))
			select {
			case <-ctx.Done():
			case <-time.After(followRelistDelay):
			}
		}
	}
}

// followList hands f the list and returns its revision.
func (s *Store) followList(ctx context.Context, f Follower) (string, error) {
	l, err := s.List(ctx, "", ListOptions{})
	if err != nil {
		return "", fmt.Errorf("list %s: %w", s.Resource.Name, err)
	}
	if f.Replace != nil {
		objs, err := l.Objects()
		if err != nil {
			return "", fmt.Errorf("decode %s: %w", s.Resource.Name, err)
		}
		f.Replace(objs)
	}
	return l.ResourceVersion, nil
}

// followWatch hands f the changes after rv until the stream ends.
func (s *Store) followWatch(ctx context.Context, rv string, f Follower) error {
	w, err := s.Watch(ctx, "", WatchOptions{ResourceVersion: rv})
	if err != nil {
		return fmt.Errorf("watch %s: %w", s.Resource.Name, err)
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-w.ResultChan():
			if !ok {
				return errFollowWatchClosed
			}
			switch e.Type {
			case storage.Error:
				return fmt.Errorf("watch %s: %w", s.Resource.Name, e.Err)
			case storage.Added, storage.Modified, storage.Deleted:
				obj, err := s.EventObject(e)
				if err != nil {
					return err
				}
				f.Apply(obj, e.Type == storage.Deleted)
			}
		}
	}
}
