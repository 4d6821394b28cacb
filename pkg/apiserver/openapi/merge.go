package openapi

import (
	"crypto/sha512"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
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
	doc, err := s.merge(append(parts, extras...))
	if err == nil {
		m.doc = doc
	}
	return m.doc
}

func (s *Spec) merge(extras [][]byte) (*document, error) {
	var base map[string]any
	if err := json.Unmarshal(s.v2.json, &base); err != nil {
		return nil, fmt.Errorf("openapi v2: %w", err)
	}
	paths, _ := base["paths"].(map[string]any)
	defs, _ := base["definitions"].(map[string]any)
	if paths == nil || defs == nil {
		return nil, fmt.Errorf("openapi v2: the server's document has no paths or definitions")
	}
	for _, e := range extras {
		var other struct {
			Paths       map[string]json.RawMessage `json:"paths"`
			Definitions map[string]json.RawMessage `json:"definitions"`
		}
		if json.Unmarshal(e, &other) != nil {
			continue
		}
		for k, v := range other.Paths {
			if _, ok := paths[k]; !ok {
				paths[k] = v
			}
		}
		for k, v := range other.Definitions {
			if _, ok := defs[k]; !ok {
				defs[k] = v
			}
		}
	}
	doc, err := newDocument(base, v2Proto)
	if err != nil {
		return nil, err
	}
	if err := protoOf(doc); err != nil {
		return nil, fmt.Errorf("openapi v2 protobuf of the merged document: %w", err)
	}
	return doc, nil
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
