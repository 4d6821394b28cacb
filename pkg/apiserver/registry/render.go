package registry

import (
	"bytes"
	"encoding/json"
	"fmt"

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
// served version and format, and every reader shares the bytes.
func (s *Store) Render(kv storage.KV, f Format) ([]byte, error) {
	return kv.Memo.Get(s.Resource.GroupVersion().String()+"/"+string(f), func() ([]byte, error) {
		obj, err := s.decode(kv)
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
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(obj); err != nil {
			return nil, err
		}
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
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
}

// Len returns the number of items.
func (l *List) Len() int { return len(l.kvs) }

// Objects decodes the items.
func (l *List) Objects() ([]meta.Object, error) {
	out := make([]meta.Object, 0, len(l.kvs))
	for _, kv := range l.kvs {
		obj, err := l.store.decode(kv)
		if err != nil {
			return nil, err
		}
		out = append(out, obj)
	}
	return out, nil
}

// Rendered returns each item rendered in f.
func (l *List) Rendered(f Format) ([][]byte, error) {
	out := make([][]byte, len(l.kvs))
	for i, kv := range l.kvs {
		b, err := l.store.Render(kv, f)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// MarshalJSON writes the list kind with its items' shared renderings.
func (l *List) MarshalJSON() ([]byte, error) {
	items, err := l.Rendered(JSON)
	if err != nil {
		return nil, err
	}
	lm, err := json.Marshal(&l.ListMeta)
	if err != nil {
		return nil, err
	}
	size := len(lm) + 64
	for _, it := range items {
		size += len(it) + 1
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	fmt.Fprintf(buf, `{"kind":%q,"apiVersion":%q,"metadata":`, l.Kind, l.APIVersion)
	buf.Write(lm)
	buf.WriteString(`,"items":[`)
	for i, it := range items {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(it)
	}
	buf.WriteString("]}")
	return buf.Bytes(), nil
}

// ProtoItems renders the list message: metadata as field 1, each item's
// shared protobuf rendering as field 2.
func (l *List) ProtoItems() ([]byte, error) {
	items, err := l.Rendered(Protobuf)
	if err != nil {
		return nil, err
	}
	b := protobuf.AppendMessage(nil, 1, &l.ListMeta)
	for _, it := range items {
		b = protobuf.AppendBytes(b, 2, it)
	}
	return b, nil
}
