package endpoints

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/storage"
)

// finalBookmarkWait bounds how long a watch ending on its timeout waits for
// its last bookmark.
const finalBookmarkWait = time.Second

// watchParams reads and checks the parameters of a watch.
func (q *request) watchParams() (registry.WatchOptions, time.Duration, error) {
	query := q.r.URL.Query()
	opts := registry.WatchOptions{
		ResourceVersion: query.Get("resourceVersion"),
		Name:            q.info.Name,
		Bookmarks:       isTrue(query.Get("allowWatchBookmarks")),
	}
	if err := validateListParams(query, true); err != nil {
		return opts, 0, err
	}
	if query.Get("continue") != "" || query.Get("limit") != "" {
		return opts, 0, apierrors.NewBadRequest("continue and limit are not valid with watch")
	}
	var err error
	if opts.SendInitialEvents, err = sendInitialEvents(query); err != nil {
		return opts, 0, err
	}
	if opts.Label, opts.Field, err = selectors(q.store.Resource, query.Get("labelSelector"), query.Get("fieldSelector")); err != nil {
		return opts, 0, err
	}
	if name, ok := opts.Field.RequiresExactMatch("metadata.name"); ok && opts.Name == "" {
		opts.Name = name
	}
	min := q.minRequestTimeout
	timeout := min + time.Duration(rand.Int64N(int64(min)+1))
	if v := query.Get("timeoutSeconds"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return opts, 0, apierrors.NewBadRequest(fmt.Sprintf("timeoutSeconds %q must be a non-negative integer", v))
		}
		if n > 0 {
			timeout = time.Duration(n) * time.Second
		}
	}
	return opts, timeout, nil
}

// watch streams WatchEvents, one JSON object per change, until the
// timeout, the client leaving, or the stream ending.
func (q *request) watch() {
	opts, timeout, err := q.watchParams()
	if err == nil && q.out.format == formatTable {
		_, err = q.tableOptions()
	}
	if err != nil {
		q.fail(err)
		return
	}
	w, err := q.store.Watch(q.ctx(), q.info.Namespace, opts)
	if err != nil {
		q.fail(err)
		return
	}
	defer w.Stop()
	rc := http.NewResponseController(q.w)
	if q.out.format == formatProtobuf {
		q.w.Header().Set("Content-Type", q.out.mediaType+";stream=watch")
	} else {
		q.w.Header().Set("Content-Type", contentTypeJSON)
	}
	q.w.Header().Set("Cache-Control", "no-cache, private")
	q.w.WriteHeader(http.StatusOK)
	rc.Flush()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var ending <-chan time.Time
	for {
		select {
		case <-q.ctx().Done():
			return
		case <-timer.C:
			if !opts.Bookmarks {
				return
			}
			// End with a bookmark, so the client resumes from the newest revision.
			if pr, ok := w.(storage.ProgressRequester); ok {
				pr.RequestProgress()
			}
			ending = time.After(finalBookmarkWait)
		case <-ending:
			return
		case e, ok := <-w.ResultChan():
			if !ok {
				return
			}
			end := q.writeReady(w.ResultChan(), e, opts.Bookmarks, ending != nil)
			rc.Flush()
			if end {
				return
			}
		}
	}
}

// flushEvery bounds how many events are written between two flushes.
const flushEvery = 64

// writeReady writes e and then the events already waiting on ch (up to
// flushEvery), so that a burst (the initial events of a watch) goes out in
// a few large writes rather than one flush per event; end is true when
// the stream must end (an ERROR written, a write failed, the final
// bookmark written, ch closed).
func (q *request) writeReady(ch <-chan storage.Event, e storage.Event, bookmarks, ending bool) (end bool) {
	for n := 1; ; n++ {
		done, err := q.writeEvent(e, bookmarks)
		if err != nil || done || (ending && e.Type == storage.Progress) {
			return true
		}
		if n == flushEvery {
			return false
		}
		var ok bool
		select {
		case e, ok = <-ch:
			if !ok {
				return true
			}
		default:
			return false
		}
	}
}

var eventTypes = map[storage.EventType]string{storage.Added: meta.Added, storage.Modified: meta.Modified, storage.Deleted: meta.Deleted}

// writeEvent writes one event; done is true after an ERROR, which ends the stream.
func (q *request) writeEvent(e storage.Event, bookmarks bool) (done bool, err error) {
	if e.Type == storage.Progress && !bookmarks && !e.InitialEventsEnd {
		return false, nil
	}
	typ, data, done := q.eventObject(e)
	if data == nil {
		return true, fmt.Errorf("endpoints: event of %s cannot be encoded", q.store.Resource.Name)
	}
	return done, q.writeFrame(typ, data)
}

// eventObject returns the type of an event and its object encoded in the
// negotiated format. Objects of stored versions are rendered once and
// shared by every watcher of the event.
func (q *request) eventObject(e storage.Event) (typ string, data []byte, done bool) {
	var v any
	switch e.Type {
	case storage.Progress:
		obj := q.store.BookmarkObject(e.Revision)
		if e.InitialEventsEnd {
			obj.GetObjectMeta().Annotations = map[string]string{InitialEventsEndAnnotation: "true"}
		}
		typ, v = meta.Bookmark, obj
	case storage.Error:
		typ, v, done = meta.Error, watchErrorStatus(e.Err), true
	default:
		typ = eventTypes[e.Type]
		var err error
		if data, err = q.renderEvent(e); err == nil {
			return typ, data, false
		}
		typ, v, done = meta.Error, watchErrorStatus(err), true
	}
	data, err := q.encodeValue(v)
	if err != nil {
		return typ, nil, true
	}
	return typ, data, done
}

// renderEvent encodes the object of a change: a one-row Table, or the
// shared rendering of the stored version (enveloped for protobuf).
func (q *request) renderEvent(e storage.Event) ([]byte, error) {
	switch q.out.format {
	case formatTable:
		obj, err := q.store.EventObject(e)
		if err != nil {
			return nil, err
		}
		t, err := q.tableEvent(obj)
		if err != nil {
			return nil, err
		}
		return registry.Encode(t, registry.JSON)
	case formatProtobuf:
		res := q.store.Resource
		return e.Memo.Get(res.GroupVersion().String()+"/protobuf-enveloped", func() ([]byte, error) {
			raw, err := q.store.RenderEvent(e, registry.Protobuf)
			if err != nil {
				return nil, err
			}
			return protobuf.Encode(res.GroupVersion().String(), res.Kind, rawMessage(raw)), nil
		})
	default:
		return q.store.RenderEvent(e, registry.JSON)
	}
}

// encodeValue encodes an object that is not a stored version (a bookmark,
// a Status) in the negotiated format.
func (q *request) encodeValue(v any) ([]byte, error) {
	if q.out.format == formatProtobuf {
		data, ok, err := protobufBody(v)
		if err != nil || !ok {
			return nil, fmt.Errorf("endpoints: %T has no protobuf form: %v", v, err)
		}
		return data, nil
	}
	return registry.Encode(v, registry.JSON)
}

// writeFrame writes one watch event, a JSON object per line or a
// length-prefixed protobuf WatchEvent, as its head, the object and its
// tail: the object is often the rendering every watcher shares, and is
// not copied per watcher.
func (q *request) writeFrame(typ string, object []byte) error {
	var buf [64]byte
	var head, tail []byte
	if q.out.format == formatProtobuf {
		head = protobufFrameHead(buf[:0], typ, len(object))
	} else {
		head = append(append(append(buf[:0], `{"type":"`...), typ...), `","object":`...)
		tail = []byte("}\n")
	}
	for _, b := range [][]byte{head, object, tail} {
		if len(b) == 0 {
			continue
		}
		if _, err := q.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// watchErrorStatus is the Status of an ERROR event.
func watchErrorStatus(err error) meta.Status {
	var se *apierrors.StatusError
	switch {
	case errors.As(err, &se):
	case errors.Is(err, storage.ErrExpired):
		se = apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %v", err))
	default:
		se = apierrors.NewInternalError(err)
	}
	return se.Status()
}
