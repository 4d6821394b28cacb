package endpoints

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"

	"sigs.k8s.io/yaml"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/jsontree"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"

	"platform.io/platform/pkg/apiserver/registry"
)

// MaxRequestBodyBytes is the largest request body accepted (3 MiB, as upstream).
const MaxRequestBodyBytes = 3 * 1024 * 1024

// readBody reads the whole body, or fails with 413 past the limit.
func readBody(r *http.Request) ([]byte, error) {
	if r.ContentLength > MaxRequestBodyBytes {
		return nil, tooLarge(r.ContentLength)
	}
	data, err := readAll(r.Body, r.ContentLength)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("reading the request body: %v", err))
	}
	if len(data) > MaxRequestBodyBytes {
		return nil, tooLarge(int64(len(data)))
	}
	return data, nil
}

// readAll reads up to MaxRequestBodyBytes+1 bytes of body into one
// buffer of the declared length (when known), so a body is read without
// the doublings of io.ReadAll.
func readAll(body io.Reader, length int64) ([]byte, error) {
	lr := io.LimitReader(body, MaxRequestBodyBytes+1)
	if length <= 0 {
		return io.ReadAll(lr)
	}
	// One byte more than declared, so the end of the body is seen without
	// growing the buffer.
	buf := make([]byte, 0, min(length, MaxRequestBodyBytes)+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

func tooLarge(n int64) error {
	return apierrors.NewRequestEntityTooLarge(fmt.Sprintf("the request body of %d bytes is larger than the limit of %d bytes", n, MaxRequestBodyBytes))
}

// mediaType returns the request's Content-Type without parameters, lowercased.
func mediaType(r *http.Request) string {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0]))
	}
	return mt
}

// body is a request body: JSON (YAML is converted) or an enveloped protobuf.
type body struct {
	data  []byte
	proto bool
}

// readObjectBody reads a body that holds an object.
func readObjectBody(r *http.Request) (body, error) {
	switch mediaType(r) {
	case mediaProtobuf, mediaUpstreamProtobuf:
		data, err := readBody(r)
		return body{data: data, proto: true}, err
	}
	data, err := bodyJSON(r)
	return body{data: data}, err
}

// decode decodes the body into v; a protobuf body must have the envelope.
func (b body) decode(v any) error {
	if b.proto {
		m, ok := v.(protobuf.Message)
		if !ok {
			return apierrors.NewUnsupportedMediaType("this body cannot be sent as protobuf")
		}
		apiVersion, kind, err := protobuf.DecodeInto(b.data, m)
		if err != nil {
			return apierrors.NewBadRequest(fmt.Sprintf("the protobuf body is not valid: %v", err))
		}
		if o, ok := v.(interface{ GetTypeMeta() *meta.TypeMeta }); ok {
			tm := o.GetTypeMeta()
			tm.APIVersion, tm.Kind = apiVersion, kind
		}
		return nil
	}
	if err := json.Unmarshal(b.data, v); err != nil {
		return apierrors.NewBadRequest(fmt.Sprintf("the body is not valid: %v", err))
	}
	return nil
}

// bodyJSON returns the request body as JSON, converting YAML.
func bodyJSON(r *http.Request) ([]byte, error) {
	data, err := readBody(r)
	if err != nil {
		return nil, err
	}
	switch mt := mediaType(r); mt {
	case "", contentTypeJSON, "*/*":
		return data, nil
	case "application/yaml", "application/x-yaml", "text/yaml":
		j, err := yaml.YAMLToJSON(data)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("the body is not valid YAML: %v", err))
		}
		return j, nil
	default:
		return nil, apierrors.NewUnsupportedMediaType(fmt.Sprintf("the body of type %q is not supported; use %q, %q or %q", mt, contentTypeJSON, "application/yaml", mediaProtobuf))
	}
}

// fieldValidation is the fieldValidation query parameter: Ignore, Warn
// (default) or Strict; writeOptions has already refused any other value.
func fieldValidation(r *http.Request) string {
	if v := r.URL.Query().Get("fieldValidation"); v != "" {
		return v
	}
	return "Warn"
}

// decodeInto decodes JSON data into obj, honouring fieldValidation for
// unknown fields, and checks that apiVersion and kind, when given, are the
// resource's.
func decodeInto(w http.ResponseWriter, r *http.Request, data []byte, obj meta.Object, res *registry.Resource) error {
	mode := fieldValidation(r)
	if err := decodeStrict(data, obj, mode == "Strict"); err != nil {
		var unknown *unknownFieldError
		if !errors.As(err, &unknown) {
			return apierrors.NewBadRequest(fmt.Sprintf("the body of the request is not a valid %s: %v", res.Kind, err))
		}
		switch mode {
		case "Strict":
			return &strictError{apierrors.NewBadRequest("strict decoding error: " + unknown.Error())}
		case "Warn":
			addWarning(w.Header(), unknown.Error())
		}
		reset(obj)
		if err := json.Unmarshal(data, obj); err != nil {
			return apierrors.NewBadRequest(fmt.Sprintf("the body of the request is not a valid %s: %v", res.Kind, err))
		}
	}
	if err := pruneUnknown(w, res, obj, mode); err != nil {
		return err
	}
	return checkTypeMeta(obj.GetTypeMeta(), res)
}

// pruneUnknown removes the fields a resource's schema does not name
// (custom resources) and reports them as the fieldValidation mode asks:
// a 400 under Strict, a warning each under Warn, nothing under Ignore.
func pruneUnknown(w http.ResponseWriter, res *registry.Resource, obj meta.Object, mode string) error {
	if res.Prune == nil {
		return nil
	}
	removed := res.Prune(obj)
	if len(removed) == 0 {
		return nil
	}
	msgs := make([]string, len(removed))
	for i, p := range removed {
		msgs[i] = fmt.Sprintf("unknown field %q", p)
	}
	switch mode {
	case "Strict":
		return &strictError{apierrors.NewBadRequest("strict decoding error: " + strings.Join(msgs, ", "))}
	case "Warn":
		for _, m := range msgs {
			addWarning(w.Header(), m)
		}
	}
	return nil
}

// strictError is the 400 for unknown fields under fieldValidation=Strict;
// a patch tells it from a result that does not decode (a 422).
type strictError struct{ *apierrors.StatusError }

func (e *strictError) Unwrap() error { return e.StatusError }

type unknownFieldError struct{ msg string }

func (e *unknownFieldError) Error() string { return e.msg }

// decodeStrict decodes one JSON object, reporting unknown fields as
// unknownFieldError; with exact (fieldValidation=Strict) also fields whose
// case differs from the schema's and duplicate fields, which take a second
// pass over the body (about three times the cost of decoding it), so the
// other modes skip it.
func decodeStrict(data []byte, obj any, exact bool) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errors.New("the body must be a JSON object")
	}
	if err := decodeObject(data, trimmed, obj); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return &unknownFieldError{msg: "unknown field " + name}
		}
		return err
	}
	if !exact {
		return nil
	}
	problems, err := fieldProblems(data, reflect.TypeOf(obj))
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return &unknownFieldError{msg: strings.Join(problems, ", ")}
	}
	return nil
}

// decodeObject decodes the JSON object data (trimmed: without its
// surrounding white space) into obj, refusing unknown fields. A type that
// decodes itself (a custom object) is handed the body directly: it is
// what encoding/json would hand it, without the decoder's two passes over
// the body first (reading the value whole, then skipping over it to find
// its end), and, when the type checks what it reads, without a json.Valid
// pass either. A body that is not well-formed takes the decoder's path,
// for its errors.
func decodeObject(data, trimmed []byte, obj any) error {
	switch u := obj.(type) {
	case jsontree.Unchecked:
		err := u.DecodeJSON(data)
		if err == nil || json.Valid(data) {
			return err
		}
	case json.Unmarshaler:
		if json.Valid(data) {
			return u.UnmarshalJSON(trimmed)
		}
	}
	return decodeWithDecoder(data, obj)
}

// decodeWithDecoder is decodeObject through encoding/json's decoder.
func decodeWithDecoder(data []byte, obj any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		return err
	}
	// Only white space may follow the object: dec.More is false before a
	// stray '}' or ']', which encoding/json.Unmarshal refuses (found by
	// FuzzDecodeStrict).
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON object")
	}
	return nil
}

// reset empties obj for a second decode.
func reset(obj meta.Object) {
	v := reflect.ValueOf(obj).Elem()
	v.Set(reflect.Zero(v.Type()))
}

func checkTypeMeta(tm *meta.TypeMeta, res *registry.Resource) error {
	want := res.GroupVersion().String()
	if tm.APIVersion != "" && tm.APIVersion != want {
		return apierrors.NewBadRequest(fmt.Sprintf("the API version in the body (%s) does not match the expected API version (%s)", tm.APIVersion, want))
	}
	if tm.Kind != "" && tm.Kind != res.Kind {
		return apierrors.NewBadRequest(fmt.Sprintf("the kind in the body (%s) does not match the expected kind (%s)", tm.Kind, res.Kind))
	}
	tm.APIVersion, tm.Kind = want, res.Kind
	return nil
}

// addWarning adds a Warning header once: a patch decodes again on every
// retried write, and the client should see each warning once.
func addWarning(h http.Header, msg string) {
	v := fmt.Sprintf(`299 - %q`, msg)
	for _, have := range h.Values("Warning") {
		if have == v {
			return
		}
	}
	h.Add("Warning", v)
}
