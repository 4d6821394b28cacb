package rest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
)

// PatchType is the media type of a patch body.
type PatchType string

// The patch types the server understands.
const (
	JSONPatchType           PatchType = "application/json-patch+json"
	MergePatchType          PatchType = "application/merge-patch+json"
	StrategicMergePatchType PatchType = "application/strategic-merge-patch+json"
	ApplyPatchType          PatchType = "application/apply-patch+yaml"
)

// Request is one API call being built. Its setters return the Request so
// calls chain; the first invalid argument is kept and returned by Do or
// Watch, and nothing is sent.
type Request struct {
	c         *Client
	verb      string
	patchType PatchType

	group, version string
	namespace      string
	resource, name string
	subresource    string
	absPath        string

	params url.Values
	header http.Header
	body   any
	err    error
	// sentFence is the LeaderLockHeader value the request was sent with.
	sentFence string
}

// Group sets the API group; "" (the default) is the core group, served
// under /api.
func (r *Request) Group(group string) *Request {
	r.group = group
	return r
}

// Version sets the API version, such as "v1".
func (r *Request) Version(version string) *Request {
	r.version = version
	return r
}

// GroupVersion sets the group and version together.
func (r *Request) GroupVersion(gv meta.GroupVersion) *Request {
	return r.Group(gv.Group).Version(gv.Version)
}

// Namespace scopes the request to a namespace; "" means a cluster-scoped
// resource, or every namespace in a list or watch.
func (r *Request) Namespace(ns string) *Request {
	if ns != "" {
		r.check("namespace", ns)
	}
	r.namespace = ns
	return r
}

// Resource sets the resource, the plural name used in paths ("pods").
func (r *Request) Resource(resource string) *Request {
	r.check("resource", resource)
	r.resource = resource
	return r
}

// Name sets the name of the object.
func (r *Request) Name(name string) *Request {
	r.check("name", name)
	r.name = name
	return r
}

// SubResource sets the subresource ("status", "scale", ...).
func (r *Request) SubResource(sub string) *Request {
	r.check("subresource", sub)
	r.subresource = sub
	return r
}

// AbsPath sends the request to a path of the server's root instead of a
// resource, such as /version or /apis; the group, version and resource
// settings are then ignored.
func (r *Request) AbsPath(path string) *Request {
	if !strings.HasPrefix(path, "/") {
		r.fail(fmt.Errorf("rest: absolute path %q does not start with /", path))
	}
	r.absPath = path
	return r
}

// Param adds a query parameter; a repeated key is sent once per value.
func (r *Request) Param(key, value string) *Request {
	r.params.Add(key, value)
	return r
}

// SetHeader sets a request header, replacing the defaults for Accept and
// Content-Type when it names them.
func (r *Request) SetHeader(key string, values ...string) *Request {
	r.header[http.CanonicalHeaderKey(key)] = values
	return r
}

// Body sets the body: an object, encoded in the Config's content type (see
// the package documentation), or []byte, string or io.Reader sent as they
// are, as the patch type for a patch and as JSON otherwise. A reader is
// read once, when the request is first sent.
func (r *Request) Body(obj any) *Request {
	r.body = obj
	return r
}

// check records an invalid path segment.
func (r *Request) check(what, segment string) {
	switch {
	case segment == "":
		r.fail(fmt.Errorf("rest: %s may not be empty", what))
	case segment == "." || segment == "..":
		r.fail(fmt.Errorf("rest: %s may not be %q", what, segment))
	case strings.ContainsAny(segment, "/%"):
		r.fail(fmt.Errorf("rest: %s %q may not contain '/' or '%%'", what, segment))
	}
}

// fail keeps the first error.
func (r *Request) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// URL returns the URL the request goes to.
func (r *Request) URL() (*url.URL, error) {
	if r.err != nil {
		return nil, r.err
	}
	p, err := r.path()
	if err != nil {
		return nil, err
	}
	u := *r.c.base
	u.Path += p
	u.RawQuery = r.params.Encode()
	return &u, nil
}

// path returns the request's path below the server's root.
func (r *Request) path() (string, error) {
	if r.absPath != "" {
		return r.absPath, nil
	}
	if r.version == "" {
		return "", fmt.Errorf("rest: no API version set")
	}
	var b strings.Builder
	if r.group == "" {
		b.WriteString("/api/" + r.version)
	} else {
		b.WriteString("/apis/" + r.group + "/" + r.version)
	}
	if r.namespace != "" {
		b.WriteString("/namespaces/" + r.namespace)
	}
	if r.resource == "" {
		if r.name != "" || r.subresource != "" {
			return "", fmt.Errorf("rest: a name or subresource needs a resource")
		}
		return b.String(), nil
	}
	b.WriteString("/" + r.resource)
	if r.name != "" {
		b.WriteString("/" + r.name)
	}
	if r.subresource != "" {
		b.WriteString("/" + r.subresource)
	}
	return b.String(), nil
}

// encodeBody returns the body's bytes and media type; nil for no body.
func (r *Request) encodeBody() ([]byte, string, error) {
	raw := ContentTypeJSON
	if r.patchType != "" {
		raw = string(r.patchType)
	}
	switch b := r.body.(type) {
	case nil:
		return nil, "", nil
	case []byte:
		return b, raw, nil
	case string:
		return []byte(b), raw, nil
	case io.Reader:
		data, err := io.ReadAll(b)
		if err != nil {
			return nil, "", fmt.Errorf("rest: reading the body: %w", err)
		}
		return data, raw, nil
	}
	if v := reflect.ValueOf(r.body); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, "", fmt.Errorf("rest: the body is a nil %T", r.body)
	}
	if r.patchType == "" && r.c.cfg.ContentType != ContentTypeJSON {
		if m, ok := r.body.(protobufObject); ok {
			tm := m.GetTypeMeta()
			return protobuf.Encode(tm.APIVersion, tm.Kind, m), r.c.cfg.ContentType, nil
		}
	}
	data, err := json.Marshal(r.body)
	if err != nil {
		return nil, "", fmt.Errorf("rest: encoding the body as JSON: %w", err)
	}
	return data, raw, nil
}

// protobufObject is an object with a protobuf form.
type protobufObject interface {
	protobuf.Message
	GetTypeMeta() *meta.TypeMeta
}
