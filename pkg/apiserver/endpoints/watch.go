package endpoints

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

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
	if query.Get("continue") != "" || query.Get("limit") != "" {
		return opts, 0, apierrors.NewBadRequest("continue and limit are not valid with watch")
	}
	var err error
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
			done, err := q.writeEvent(e, opts.Bookmarks)
			if err != nil {
				return
			}
			rc.Flush()
			if done || (ending != nil && e.Type == storage.Progress) {
				return
			}
		}
	}
}

var eventTypes = map[storage.EventType]string{storage.Added: meta.Added, storage.Modified: meta.Modified, storage.Deleted: meta.Deleted}

// writeEvent writes one event; done is true after an ERROR, which ends the stream.
func (q *request) writeEvent(e storage.Event, bookmarks bool) (done bool, err error) {
	var typ string
	var obj any
	switch e.Type {
	case storage.Progress:
		if !bookmarks {
			return false, nil
		}
		typ, obj = meta.Bookmark, q.store.BookmarkObject(e.Revision)
	case storage.Error:
		st := watchErrorStatus(e.Err)
		typ, obj, done = meta.Error, st, true
	default:
		o, err := q.store.EventObject(e)
		if err != nil {
			typ, obj, done = meta.Error, watchErrorStatus(err), true
		} else {
			typ, obj = eventTypes[e.Type], o
		}
	}
	frame, err := q.frame(typ, obj)
	if err != nil {
		return true, err
	}
	_, err = q.w.Write(frame)
	return done, err
}

// frame encodes one watch event in the negotiated format: a JSON object
// per line, or a length-prefixed protobuf WatchEvent.
func (q *request) frame(typ string, obj any) ([]byte, error) {
	if q.out.format == formatProtobuf {
		return protobufFrame(typ, obj)
	}
	// A Table watch sends each changed object as a one-row Table; bookmarks
	// and errors stay as they are.
	if o, ok := obj.(meta.Object); ok && q.out.format == formatTable && typ != meta.Bookmark && typ != meta.Error {
		t, err := q.tableEvent(o)
		if err != nil {
			return nil, err
		}
		obj = t
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(len(data) + 32)
	buf.WriteString(`{"type":"`)
	buf.WriteString(typ)
	buf.WriteString(`","object":`)
	buf.Write(data)
	buf.WriteString("}\n")
	return buf.Bytes(), nil
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
