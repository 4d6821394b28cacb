package rest

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// MaxWatchFrameBytes is the largest protobuf watch frame a Watcher reads;
// a longer one ends the stream with an error rather than an allocation the
// server did not mean.
const MaxWatchFrameBytes = 64 << 20

// Event is one change of a watch stream.
type Event struct {
	// Type is ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.
	Type string
	// Object is the object as sent: JSON, or the protobuf envelope.
	Object []byte
	// MediaType is the encoding of Object.
	MediaType string
}

// Decode decodes the event's object into into, as Result.Into does.
func (e Event) Decode(into any) error { return decode(e.MediaType, e.Object, into) }

// Watcher reads the events of one watch stream. Next must not be called
// concurrently; Stop may be called from any goroutine, at any time.
type Watcher struct {
	ctx    context.Context
	cancel context.CancelFunc
	body   io.ReadCloser
	next   func() (meta.WatchEvent, error)
	media  string

	mu      sync.Mutex
	stopped bool
}

// Watch sends the request, which should carry watch=true, and returns the
// stream of its events. A failure before the stream starts is returned as
// Do would return it.
func (r *Request) Watch(ctx context.Context) (*Watcher, error) {
	wctx, cancel := context.WithCancel(ctx)
	resp, release, err := r.send(wctx, true)
	if err != nil {
		cancel()
		return nil, err
	}
	release() // a watch has no attempt timeout: this releases nothing
	res := Result{statusCode: resp.StatusCode, mediaType: mediaTypeOf(resp.Header.Get("Content-Type"))}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		cancel()
		return nil, newResult(resp, data).err
	}
	w := &Watcher{ctx: ctx, cancel: cancel, body: resp.Body, media: res.mediaType}
	switch {
	case isProtobuf(res.mediaType):
		w.next = protobufFrames(bufio.NewReader(resp.Body))
	case isJSON(res.mediaType):
		w.next = jsonEvents(json.NewDecoder(resp.Body))
	default:
		w.Stop()
		return nil, fmt.Errorf("rest: cannot decode a watch stream of type %q", res.mediaType)
	}
	return w, nil
}

// Next returns the next event. It returns io.EOF once the server ended the
// stream or Stop was called, the context's error once it is done, and, for
// an ERROR event, the event with the *errors.StatusError it carries.
func (w *Watcher) Next() (Event, error) {
	we, err := w.next()
	if err != nil {
		return Event{}, w.end(err)
	}
	ev := Event{Type: we.Type, Object: we.Object, MediaType: w.media}
	switch ev.Type {
	case meta.Added, meta.Modified, meta.Deleted, meta.Bookmark:
		return ev, nil
	case meta.Error:
		var st meta.Status
		if err := ev.Decode(&st); err != nil {
			return ev, fmt.Errorf("rest: watch: decoding the ERROR event: %w", err)
		}
		return ev, apierrors.FromStatus(st)
	}
	return ev, fmt.Errorf("rest: watch: unknown event type %q", ev.Type)
}

// end stops the watcher after a read error and says why the stream ended.
func (w *Watcher) end(err error) error {
	w.mu.Lock()
	stopped := w.stopped
	w.mu.Unlock()
	w.Stop()
	switch {
	case stopped:
		return io.EOF
	case w.ctx.Err() != nil:
		return w.ctx.Err()
	case errors.Is(err, io.EOF):
		return io.EOF
	}
	return fmt.Errorf("rest: watch: %w", err)
}

// Stop ends the stream and releases its connection. It is safe to call more
// than once.
func (w *Watcher) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.stopped = true
	w.cancel()
	w.body.Close()
}

// jsonEvents reads a stream of JSON WatchEvents, one after another.
func jsonEvents(dec *json.Decoder) func() (meta.WatchEvent, error) {
	return func() (meta.WatchEvent, error) {
		var we meta.WatchEvent
		err := dec.Decode(&we)
		return we, err
	}
}

// protobufFrames reads a stream of WatchEvents, each framed by its length
// as a 4-byte big-endian number.
func protobufFrames(r *bufio.Reader) func() (meta.WatchEvent, error) {
	var buf []byte
	return func() (meta.WatchEvent, error) {
		var we meta.WatchEvent
		var hdr [4]byte
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return we, err
		}
		n := binary.BigEndian.Uint32(hdr[:])
		if n > MaxWatchFrameBytes {
			return we, fmt.Errorf("a frame of %d bytes is over the limit of %d", n, MaxWatchFrameBytes)
		}
		if cap(buf) < int(n) {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return we, err
		}
		if err := we.UnmarshalProto(buf); err != nil {
			return we, fmt.Errorf("decoding a protobuf event: %w", err)
		}
		return we, nil
	}
}
