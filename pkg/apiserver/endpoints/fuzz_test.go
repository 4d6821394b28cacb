package endpoints

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/instance"
)

// FuzzRequestInfo parses arbitrary request paths and methods: that must
// never panic; a resource request must name a resource and a version; and
// every name it reads must be a segment of the path, never more.
func FuzzRequestInfo(f *testing.F) {
	for _, seed := range []struct{ method, path string }{
		{"GET", "/api/v1/namespaces/default/pods/web/status"},
		{"GET", "/apis/apps/v1/watch/namespaces/ns/deployments"},
		{"DELETE", "/api/v1/namespaces/ns/configmaps"},
		{"POST", "/api/v1/namespaces/ns/pods/p/binding"},
		{"PUT", "/api/v1/namespaces/ns/finalize"},
		{"GET", "/apis/apps"},
		{"PATCH", "//api//v1//namespaces"},
		{"GET", "/api/v1/namespaces/../secrets"},
	} {
		f.Add(seed.method, seed.path)
	}
	f.Fuzz(func(t *testing.T, method, path string) {
		if method == "" {
			method = http.MethodGet // as net/http reads an empty method
		}
		r := &http.Request{Method: method, URL: &url.URL{Path: path, RawQuery: "watch=1"}}
		info := ParseRequestInfo(r)
		if !info.IsResourceRequest {
			return
		}
		if info.Resource == "" || info.APIVersion == "" || info.Verb == "" {
			t.Fatalf("%s %q: resource request without resource, version or verb: %+v", method, path, info)
		}
		segments := map[string]bool{}
		for _, s := range strings.Split(path, "/") {
			segments[s] = true
		}
		for _, name := range []string{info.APIGroup, info.Namespace, info.Resource, info.Subresource, info.Name} {
			if name != "" && !segments[name] {
				t.Fatalf("%s %q: %q is not a segment of the path: %+v", method, path, name, info)
			}
		}
	})
}

// FuzzNegotiate negotiates arbitrary Accept headers: that must never panic,
// and the answer is either a format the server speaks, with a media type
// it sends, or a 406.
func FuzzNegotiate(f *testing.F) {
	for _, seed := range []string{
		"", "*/*", "application/json", "application/vnd.platform.protobuf, application/json;q=0.9",
		"application/json;as=Table;v=v1;g=meta.platform.io", "application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json",
		"text/html", "application/json;q=0", ";;;,,,", "application/*;q=0.5, image/png",
	} {
		f.Add(seed, true, true)
	}
	f.Fuzz(func(t *testing.T, accept string, tables, protobuf bool) {
		r := &http.Request{Header: http.Header{"Accept": {accept}}}
		n, err := negotiate(r, tables, protobuf)
		if err != nil {
			if !apierrors.IsNotAcceptable(err) {
				t.Fatalf("Accept %q: %v is not a 406", accept, err)
			}
			return
		}
		switch n.format {
		case formatJSON:
			if n.mediaType != contentTypeJSON {
				t.Fatalf("Accept %q: JSON sent as %q", accept, n.mediaType)
			}
		case formatProtobuf:
			if !protobuf || (n.mediaType != mediaProtobuf && n.mediaType != mediaUpstreamProtobuf) {
				t.Fatalf("Accept %q: protobuf (allowed %v) sent as %q", accept, protobuf, n.mediaType)
			}
		case formatTable:
			if !tables || !tableGroups[n.tableGroup] || (n.tableVersion != "v1" && n.tableVersion != "v1beta1") {
				t.Fatalf("Accept %q: Table (allowed %v) in %q %q", accept, tables, n.tableGroup, n.tableVersion)
			}
		default:
			t.Fatalf("Accept %q: unknown format %d", accept, n.format)
		}
	})
}

// FuzzDecodeStrict decodes arbitrary request bodies as a Pod the way the
// create handler does: that must never panic; a body decodeStrict accepts
// must also decode leniently to the same object; and an unknown-field
// error must name its fields.
func FuzzDecodeStrict(f *testing.F) {
	for _, seed := range []string{
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`,
		`{"Metadata":{"name":"p"}}`,
		`{"metadata":{"name":"a","name":"b"}}`,
		`{"bogus":1,"spec":{"containers":[{"colour":"red"}]}}`,
		`{"metadata":{"labels":{"a":"1","a":"2"}}}`,
		`{"spec":{"containers":[[[[]]]]}}`,
		`[]`, `null`, `{"metadata":{}} {}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		strict := &corev1.Pod{}
		err := decodeStrict(data, strict, true)
		var unknown *unknownFieldError
		switch {
		case errors.As(err, &unknown):
			if !strings.Contains(unknown.Error(), "field") {
				t.Fatalf("unknown-field error names no field: %v", unknown)
			}
			return
		case err != nil:
			return
		}
		lenient := &corev1.Pod{}
		if err := json.Unmarshal(data, lenient); err != nil {
			t.Fatalf("strictly decodable body does not decode leniently: %v", err)
		}
		if !reflect.DeepEqual(strict, lenient) {
			t.Fatalf("strict and lenient decodes differ:\n%+v\n%+v", strict, lenient)
		}
	})
}

// FuzzYAMLBody converts arbitrary YAML request bodies to JSON as the
// handlers do: that must never panic, and what converts must be valid JSON.
func FuzzYAMLBody(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: \"1\"\n",
		"a: &a [1,2]\nb: [*a,*a]\n", "- a\n- b\n", "? [a, b]\n: c\n", "a: !!binary aGk=\n",
		"{a: {b: {c: [1, 2.5, true, null, ~]}}}\n", "x: 0x10\ny: 1e3\nz: .inf\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &http.Request{Header: http.Header{"Content-Type": {"application/yaml"}}, Body: http.NoBody}
		r.Body = readCloser{strings.NewReader(string(data))}
		r.ContentLength = int64(len(data))
		out, err := bodyJSON(r)
		if err != nil {
			if !apierrors.IsBadRequest(err) && apierrors.ReasonForError(err) != meta.StatusReasonRequestEntityTooLarge {
				t.Fatalf("YAML body error is not a 400 or 413: %v", err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("YAML %q converted to invalid JSON %q", data, out)
		}
	})
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }

// FuzzDecodeCustomObject: a custom object, which decodes itself, reads
// every body as it does through encoding/json's decoder: the same object,
// and an error exactly where the decoder has one.
func FuzzDecodeCustomObject(f *testing.F) {
	for _, seed := range []string{
		`{"apiVersion":"example.com/v1","kind":"App","metadata":{"name":"p","labels":{"a":"b"}},"spec":{"n":[1,2.5,"x"]},"status":{"ok":true}}`,
		` {"metadata":{"name":"a"}} `, "\t{}\r\n", `{"metadata":{}} {}`, `{"a":1}}`, `{"metadata":5}`, `{"kind":1}`,
		`[]`, `null`, `{"spec":"\ud800"}`, "{\"a\":\"\xff\"}", `{"metadata":{"name":"a"},"metadata":null}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) == 0 || trimmed[0] != '{' {
			return // decodeStrict refuses it before decoding
		}
		got := &instance.Object{SplitStatus: true}
		err := decodeObject(data, trimmed, got)
		want := &instance.Object{SplitStatus: true}
		werr := decodeWithDecoder(data, want)
		if fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("errors differ: decoder %v, decodeObject %v", werr, err)
		}
		if err == nil && !reflect.DeepEqual(want, got) {
			t.Fatalf("decodeObject(%q) = %+v, the decoder gives %+v", data, got, want)
		}
	})
}
