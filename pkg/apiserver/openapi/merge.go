package openapi

import (
	"crypto/sha512"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	"google.golang.org/protobuf/proto"
)

// mergedV2 is the last v2 document made with other documents merged in,
// and the sources it was made from.
type mergedV2 struct {
	// mu guards key and doc.
	mu  sync.Mutex
	key [sha512.Size]byte
	doc *document
}

// ServeV2With serves /openapi/v2 with the paths and definitions of extras
// (other servers' v2 documents, in JSON) that the server's own document
// and its custom resources lack: the server's own always win. An extra
// that is not a JSON document is left out; when the merged document has
// no protobuf form (an extra that the parser rejects), the server's own
// is served, so an aggregated server cannot break clients of the others.
// The merged document, with its protobuf form and ETag, is made once per
// set of extras and of custom resources.
func (s *Spec) ServeV2With(w http.ResponseWriter, r *http.Request, extras [][]byte) {
	s.serveDocument(w, r, s.mergeV2(extras), mimeV2Proto, mimeV2Proto, mimeV2ProtoDeprecated)
}

// mergeV2 returns the built-in document with the custom resources' parts
// and then extras merged in.
func (s *Spec) mergeV2(extras [][]byte) *document {
	gen, parts := s.custom.v2Parts()
	if len(parts) == 0 && len(extras) == 0 {
		return s.v2
	}
	h := sha512.New()
	h.Write(binary.BigEndian.AppendUint64(nil, gen))
	for _, e := range extras {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(e))))
		h.Write(e)
	}
	var key [sha512.Size]byte
	copy(key[:], h.Sum(nil))
	m := &s.merged
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.doc != nil && m.key == key {
		return m.doc
	}
	m.key, m.doc = key, s.v2
	doc, err := s.merge(parts, extras)
	if err == nil {
		m.doc = doc
	}
	return m.doc
}

// v2Parts is the paths and definitions of a swagger 2.0 document, each
// kept as its JSON.
type v2Parts struct {
	Paths       map[string]json.RawMessage `json:"paths"`
	Definitions map[string]json.RawMessage `json:"definitions"`
}

// splitV2 is the built-in v2 document decoded for merging, once: its
// top-level fields, paths and definitions, each as JSON.
type splitV2 struct {
	once  sync.Once
	top   map[string]json.RawMessage
	parts v2Parts
	err   error
}

func (s *Spec) split() (*splitV2, error) {
	b := &s.base
	b.once.Do(func() {
		if b.err = json.Unmarshal(s.v2.json, &b.top); b.err == nil {
			b.err = json.Unmarshal(s.v2.json, &b.parts)
		}
		if b.err == nil && (b.parts.Paths == nil || b.parts.Definitions == nil) {
			b.err = fmt.Errorf("the server's document has no paths or definitions")
		}
	})
	if b.err != nil {
		return nil, fmt.Errorf("openapi v2: %w", b.err)
	}
	return b, nil
}

// merge adds to the built-in document the paths and definitions it lacks
// of own (the custom resources' parts), then of extras. Concatenated
// protobuf messages merge (repeated fields append), so without extras the
// merged protobuf form is the built-in one's followed by that of own's
// additions alone, and the large built-in document is not parsed again.
func (s *Spec) merge(own, extras [][]byte) (*document, error) {
	base, err := s.split()
	if err != nil {
		return nil, err
	}
	merged := v2Parts{Paths: maps.Clone(base.parts.Paths), Definitions: maps.Clone(base.parts.Definitions)}
	added := v2Parts{Paths: map[string]json.RawMessage{}, Definitions: map[string]json.RawMessage{}}
	add := func(doc []byte, record bool) {
		var other v2Parts
		if json.Unmarshal(doc, &other) != nil {
			return
		}
		for _, kind := range []struct{ from, to, rec map[string]json.RawMessage }{
			{other.Paths, merged.Paths, added.Paths}, {other.Definitions, merged.Definitions, added.Definitions},
		} {
			for k, v := range kind.from {
				if _, ok := kind.to[k]; !ok {
					kind.to[k] = v
					if record {
						kind.rec[k] = v
					}
				}
			}
		}
	}
	for _, o := range own {
		add(o, true)
	}
	for _, e := range extras {
		add(e, false)
	}
	top := maps.Clone(base.top)
	for key, v := range map[string]any{"paths": merged.Paths, "definitions": merged.Definitions} {
		if top[key], err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("openapi v2: %w", err)
		}
	}
	data, err := json.Marshal(top)
	if err != nil {
		return nil, fmt.Errorf("openapi v2: %w", err)
	}
	toProto := v2Proto
	if len(extras) == 0 {
		toProto = func([]byte) ([]byte, error) { return s.appendV2Proto(added) }
	}
	doc := jsonDocument(data, toProto)
	if err := protoOf(doc); err != nil {
		return nil, fmt.Errorf("openapi v2 protobuf of the merged document: %w", err)
	}
	return doc, nil
}

// appendV2Proto is the built-in document's protobuf form merged with
// that of the paths and definitions of parts.
func (s *Spec) appendV2Proto(parts v2Parts) ([]byte, error) {
	base, err := s.v2.proto.get()
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(map[string]any{
		"swagger": "2.0", "info": map[string]any{"title": "", "version": ""},
		"paths": parts.Paths, "definitions": parts.Definitions,
	})
	if err != nil {
		return nil, err
	}
	doc, err := openapiv2.ParseDocument(data)
	if err != nil {
		return nil, err
	}
	// Only the additions: set fields would replace the built-in ones.
	doc.Swagger, doc.Info = "", nil
	pb, err := proto.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return append(slices.Clip(base), pb...), nil
}

// protoOf makes doc's protobuf form, turning a panic of the parser (it
// panics on some malformed documents) into an error.
func protoOf(doc *document) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the OpenAPI parser failed: %v", p)
		}
	}()
	_, err = doc.proto.get()
	return err
}
