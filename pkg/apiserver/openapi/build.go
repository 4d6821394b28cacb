package openapi

import (
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"sync"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	openapiv3 "github.com/google/gnostic-models/openapiv3"
	"google.golang.org/protobuf/proto"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// Info is the title and version the documents carry.
type Info struct {
	Title   string
	Version string
}

// Spec holds every OpenAPI document, serialized once at build time.
type Spec struct {
	v2 *document
	// v3 holds the group version documents by gvPath ("api/v1").
	v3        map[string]*document
	discovery *document
	// merged is /openapi/v2 with aggregated servers' documents and
	// custom resources' parts (merge.go); base the built-in document
	// decoded for the merge.
	merged mergedV2
	base   splitV2
	// defs are the built-in definitions, read-only once built: the
	// documents of custom resources refer to them (custom.go).
	defs *definitions
	info Info
	// custom are the documents of custom resources, which change at run
	// time (custom.go).
	custom customSet
}

// document is one served document: JSON, made at build time, and
// protobuf and gzip encodings, made on first use.
type document struct {
	json []byte
	// hash is the upper-case hex SHA-512 of json; the ETag of every encoding.
	hash   string
	proto  *lazy
	gzJSON *lazy
	// gzProto is nil when the document has no protobuf form.
	gzProto *lazy
}

// lazy is bytes computed once, when first asked for.
type lazy struct {
	once sync.Once
	make func() ([]byte, error)
	data []byte
	err  error
}

func newLazy(make func() ([]byte, error)) *lazy { return &lazy{make: make} }

func (l *lazy) get() ([]byte, error) {
	l.once.Do(func() { l.data, l.err = l.make() })
	return l.data, l.err
}

// Build makes the documents for the resources rows serve.
func Build(rows []*registry.Resource, info Info) (*Spec, error) {
	d := newDefinitions()
	var gvs []meta.GroupVersion
	paths := map[meta.GroupVersion]map[string]*pathItem{}
	for _, r := range rows {
		if paths[r.GroupVersion()] == nil {
			gvs = append(gvs, r.GroupVersion())
			paths[r.GroupVersion()] = map[string]*pathItem{}
		}
	}
	if err := d.defineMeta(gvs); err != nil {
		return nil, err
	}
	// Custom resources with a scale subresource use it.
	if _, err := d.defineScale(); err != nil {
		return nil, err
	}
	for _, r := range rows {
		if err := addResource(d, r, paths[r.GroupVersion()]); err != nil {
			return nil, err
		}
	}
	d.finish()
	s := &Spec{v3: map[string]*document{}, defs: d, info: info}
	all := map[string]*pathItem{}
	for _, gv := range gvs {
		discoveryPath(gv, paths[gv])
		for p, item := range paths[gv] {
			all[p] = item
		}
		doc, err := newDocument(v3Document(d, info, paths[gv]), v3Proto)
		if err != nil {
			return nil, fmt.Errorf("openapi v3 %s: %w", gvPath(gv), err)
		}
		s.v3[gvPath(gv)] = doc
	}
	var err error
	if s.v2, err = newDocument(v2Document(d, info, all), v2Proto); err != nil {
		return nil, fmt.Errorf("openapi v2: %w", err)
	}
	// kubectl reads /openapi/v2 as protobuf: make it now, so a document
	// gnostic rejects fails the start instead of the request.
	if _, err := s.v2.proto.get(); err != nil {
		return nil, fmt.Errorf("openapi v2 protobuf: %w", err)
	}
	if s.discovery, err = newDocument(discoveryDocument(s.v3), nil); err != nil {
		return nil, err
	}
	return s, nil
}

// addResource defines row r's kinds and adds its paths to out.
func addResource(d *definitions, r *registry.Resource, out map[string]*pathItem) error {
	kind, list, err := d.defineKind(r)
	if err != nil {
		return err
	}
	p := &resourcePaths{r: r, gv: r.GroupVersion(), kind: kind, list: list, actions: map[string]string{}, out: out}
	if r.Scale != nil {
		if p.scale, err = d.defineScale(); err != nil {
			return err
		}
	}
	for name := range r.Actions {
		if p.actions[name], err = d.defineAction(r, kind, name); err != nil {
			return err
		}
	}
	p.build()
	return nil
}

// discoveryDocument lists group version documents with their hashes.
func discoveryDocument(docs ...map[string]*document) any {
	entries := map[string]any{}
	for key, doc := range union(docs) {
		u := url.URL{Path: "/openapi/v3/" + key, RawQuery: url.Values{"hash": {doc.hash}}.Encode()}
		entries[key] = map[string]any{"serverRelativeURL": u.String()}
	}
	return map[string]any{"paths": entries}
}

// union iterates over the entries of maps, the earlier maps' first: a key
// of a later map that an earlier one has is skipped.
func union(maps []map[string]*document) func(func(string, *document) bool) {
	return func(yield func(string, *document) bool) {
		seen := map[string]bool{}
		for _, m := range maps {
			for k, v := range m {
				if seen[k] {
					continue
				}
				seen[k] = true
				if !yield(k, v) {
					return
				}
			}
		}
	}
}

// newDocument serializes v as JSON and, with toProto, as protobuf.
func newDocument(v any, toProto func([]byte) ([]byte, error)) (*document, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonDocument(data, toProto), nil
}

// jsonDocument is the document of JSON data, with a protobuf form when
// toProto is set.
func jsonDocument(data []byte, toProto func([]byte) ([]byte, error)) *document {
	doc := &document{json: data, hash: fmt.Sprintf("%X", sha512.Sum512(data))}
	doc.gzJSON = newLazy(func() ([]byte, error) { return gzipped(data), nil })
	if toProto != nil {
		doc.proto = newLazy(func() ([]byte, error) { return toProto(data) })
		doc.gzProto = newLazy(func() ([]byte, error) {
			pb, err := doc.proto.get()
			if err != nil {
				return nil, err
			}
			return gzipped(pb), nil
		})
	}
	return doc
}

func v2Proto(data []byte) ([]byte, error) {
	doc, err := openapiv2.ParseDocument(data)
	if err != nil {
		return nil, err
	}
	return proto.Marshal(doc)
}

func v3Proto(data []byte) ([]byte, error) {
	doc, err := openapiv3.ParseDocument(data)
	if err != nil {
		return nil, err
	}
	return proto.Marshal(doc)
}

func gzipped(data []byte) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.DefaultCompression)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// sortedDefs returns the names of a set of definitions, sorted.
func sortedDefs(set map[string]bool) []string {
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
