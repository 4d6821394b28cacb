package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"platform.io/client/api/jsontree"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"

	"platform.io/platform/pkg/apiserver/storage"
)

// Format is a wire format objects are rendered in.
type Format string

// The formats.
const (
	// JSON renders the object as JSON.
	JSON Format = "json"
	// Protobuf renders the object's protobuf message, without the envelope.
	Protobuf Format = "protobuf"
)

// Render returns a stored object version as served: decoded into the served
// version, stamped with its resourceVersion and selfLink, and encoded. With
// a memo (objects from the watch cache) each version is rendered once per
// served version and format, and every reader shares the bytes; so a
// conversion made for the rendering is not bound to one reader's request.
func (s *Store) Render(kv storage.KV, f Format) ([]byte, error) {
	return kv.Memo.Get(s.Resource.GroupVersion().String()+"/"+string(f), func() ([]byte, error) {
		obj, err := s.decode(context.Background(), kv)
		if err != nil {
			return nil, err
		}
		return Encode(obj, f)
	})
}

// Encode renders one object.
func Encode(obj any, f Format) ([]byte, error) {
	switch f {
	case Protobuf:
		m, ok := obj.(protobuf.Message)
		if !ok {
			return nil, fmt.Errorf("registry: %T has no protobuf encoding", obj)
		}
		return m.MarshalProto(nil), nil
	default:
		return jsontree.Marshal(obj, false)
	}
}

// RenderEvent renders the object of a watch event, with the event's
// revision as its resourceVersion.
func (s *Store) RenderEvent(e storage.Event, f Format) ([]byte, error) {
	return s.Render(storage.KV{Key: e.Key, Value: e.Value, Revision: e.Revision, Memo: e.Memo}, f)
}

// List is a list of stored objects of one resource, rendered on demand.
type List struct {
	meta.TypeMeta
	meta.ListMeta
	store *Store
	kvs   []storage.KV
	// objs, when set, are the items already decoded: those of a version
	// whose conversion converts a whole list at once (a webhook's one
	// review per list), done when the list is read.
	objs []meta.Object
}

// Len returns the number of items.
func (l *List) Len() int { return len(l.kvs) }

// render renders item i.
func (l *List) render(i int, f Format) ([]byte, error) {
	if l.objs != nil {
		return Encode(l.objs[i], f)
	}
	return l.store.Render(l.kvs[i], f)
}

// Objects decodes the items (those decoded when the list was read are
// returned as they are: the list is the caller's).
func (l *List) Objects() ([]meta.Object, error) {
	if l.objs != nil {
		return l.objs, nil
	}
	out := make([]meta.Object, 0, len(l.kvs))
	for _, kv := range l.kvs {
		obj, err := l.store.decode(context.Background(), kv)
		if err != nil {
			return nil, err
		}
		out = append(out, obj)
	}
	return out, nil
}

// SharedObjects is Objects for a reader that only looks: an item from the
// watch cache is decoded once per stored version and the same object is
// returned to every caller until it changes (see Store.GetShared). The
// caller must not modify the objects.
func (l *List) SharedObjects() ([]meta.Object, error) {
	if l.objs != nil {
		return l.objs, nil
	}
	out := make([]meta.Object, 0, len(l.kvs))
	for _, kv := range l.kvs {
		obj, err := l.store.decodeShared(context.Background(), kv)
		if err != nil {
			return nil, err
		}
		out = append(out, obj)
	}
	return out, nil
}

// WriteJSON streams the list to w as JSON, one item at a time, so no more
// than one item's rendering is held at once besides those the watch cache
// keeps (its shared renderings). A failure midway leaves w with a partial
// document; the caller must make the client see an aborted response.
func (l *List) WriteJSON(w io.Writer) error {
	lm, err := json.Marshal(&l.ListMeta)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, `{"kind":%q,"apiVersion":%q,"metadata":%s,"items":[`, l.Kind, l.APIVersion, lm); err != nil {
		return err
	}
	for i := range l.kvs {
		b, err := l.render(i, JSON)
		if err != nil {
			return err
		}
		if i > 0 {
			if _, err := w.Write(comma); err != nil {
				return err
			}
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, "]}")
	return err
}

var comma = []byte{','}

// keepRendered bounds the renderings WriteProtobuf keeps between its two
// passes (those the watch cache holds anyway are not counted): a list up
// to this size is rendered once; past it, the rest is rendered again
// rather than held.
const keepRendered = 4 << 20

// WriteProtobuf streams the list to w in the protobuf envelope. The
// envelope states the list's length first, so a first pass renders each
// item to measure it, keeping renderings up to keepRendered bytes, and a
// second writes them, rendering again what it did not keep. The same
// caveat as WriteJSON holds for a failure midway.
func (l *List) WriteProtobuf(w io.Writer) error {
	sizes := make([]int, len(l.kvs))
	kept := make([][]byte, len(l.kvs))
	lm := protobuf.AppendMessage(nil, 1, &l.ListMeta)
	total, held := len(lm), 0
	var tag []byte
	for i, kv := range l.kvs {
		b, err := l.render(i, Protobuf)
		if err != nil {
			return err
		}
		sizes[i] = len(b)
		tag = protobuf.AppendLength(tag[:0], 2, len(b))
		total += len(tag) + len(b)
		if kv.Memo != nil || l.objs != nil || held+len(b) <= keepRendered {
			kept[i] = b
			if kv.Memo == nil {
				held += len(b)
			}
		}
	}
	header, trailer := protobuf.EncodeParts(l.APIVersion, l.Kind, total)
	if _, err := w.Write(header); err != nil {
		return err
	}
	if _, err := w.Write(lm); err != nil {
		return err
	}
	for i, kv := range l.kvs {
		b := kept[i]
		if b == nil {
			var err error
			if b, err = l.render(i, Protobuf); err != nil {
				return err
			}
			if len(b) != sizes[i] {
				return fmt.Errorf("registry: %s rendered to %d bytes, then %d", kv.Key, sizes[i], len(b))
			}
		}
		kept[i] = nil
		tag = protobuf.AppendLength(tag[:0], 2, len(b))
		if _, err := w.Write(tag); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := w.Write(trailer)
	return err
}

// MarshalJSON writes the list kind with its items' shared renderings
// (for pretty-printing, which re-indents a whole document).
func (l *List) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := l.WriteJSON(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
