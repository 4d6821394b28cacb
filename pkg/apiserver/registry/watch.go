package registry

import (
	"context"

	"platform.io/client/api/fields"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/storage"
)

// WatchOptions narrow a watch.
type WatchOptions struct {
	// ResourceVersion: "" sends the current objects first (a consistent
	// read), "0" the same from the cache as it is, N only changes after N.
	ResourceVersion string
	// Name watches one object.
	Name  string
	Label labels.Selector
	Field fields.Selector
	// Bookmarks asks for Progress events, which become BOOKMARKs.
	Bookmarks bool
	// SendInitialEvents, when set, is the watch-list protocol: true sends
	// the objects at a revision not older than ResourceVersion ("" the
	// current one, "0" the cache's) as Added events, then a Progress event
	// marked InitialEventsEnd; false sends only changes, after
	// ResourceVersion or, when it is "" or "0", from now.
	SendInitialEvents *bool
}

// Watch streams changes to the objects in namespace ns ("" for all).
func (s *Store) Watch(ctx context.Context, ns string, opts WatchOptions) (storage.Watcher, error) {
	w, ok := s.storage.(storage.Watchable)
	if !ok {
		return nil, s.interpret(errNoWatch, "")
	}
	key, prefix := s.keyPrefix(ns), true
	if opts.Name != "" {
		key, prefix = s.key(ns, opts.Name), false
	}
	so := storage.WatchOptions{Prefix: prefix, ProgressNotify: opts.Bookmarks, Predicate: s.predicate(opts.Label, opts.Field)}
	send := opts.SendInitialEvents
	switch {
	case send != nil && !*send && opts.ResourceVersion == "0":
		// Changes from any recent state: the watch cache's own revision.
	case send != nil && !*send && opts.ResourceVersion == "":
		// Changes from now, which is etcd's current revision (a quorum
		// read): a watch cache still behind it would replay writes
		// acknowledged before this request as changes.
		rev, err := s.storage.CurrentRevision(ctx)
		if err != nil {
			return nil, s.interpret(err, "")
		}
		so.Revision = rev
	case send != nil && *send && opts.ResourceVersion != "" && opts.ResourceVersion != "0":
		rev, err := parseResourceVersion(opts.ResourceVersion)
		if err != nil {
			return nil, err
		}
		so.InitialState, so.Revision, so.InitialEventsEnd = true, rev, true
	case opts.ResourceVersion == "":
		rev, err := s.storage.CurrentRevision(ctx)
		if err != nil {
			return nil, s.interpret(err, "")
		}
		so.InitialState, so.Revision = true, rev
		so.InitialEventsEnd = send != nil
	case opts.ResourceVersion == "0":
		so.InitialState = true
		so.InitialEventsEnd = send != nil
	default:
		rev, err := parseResourceVersion(opts.ResourceVersion)
		if err != nil {
			return nil, err
		}
		so.Revision = rev
	}
	watcher, err := w.Watch(ctx, key, so)
	if err != nil {
		return nil, s.interpret(err, opts.Name)
	}
	return watcher, nil
}

// EventObject decodes the object of a watch event in the served version,
// with the event's revision as its resourceVersion.
func (s *Store) EventObject(e storage.Event) (meta.Object, error) {
	return s.decode(context.Background(), storage.KV{Key: e.Key, Value: e.Value, Revision: e.Revision})
}

// BookmarkObject is the object of a BOOKMARK: the served kind with only
// metadata.resourceVersion set.
func (s *Store) BookmarkObject(rev int64) meta.Object {
	obj := s.Resource.New()
	tm := obj.GetTypeMeta()
	tm.APIVersion, tm.Kind = s.Resource.GroupVersion().String(), s.Resource.Kind
	obj.GetObjectMeta().ResourceVersion = formatRV(rev)
	return obj
}
