package rest

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
)

// Result is the outcome of Do: a response read whole, or an error.
type Result struct {
	body       []byte
	mediaType  string
	statusCode int
	err        error
}

// newResult classifies a response: any code outside 2xx is an error.
func newResult(resp *http.Response, data []byte) Result {
	res := Result{body: data, mediaType: mediaTypeOf(resp.Header.Get("Content-Type")), statusCode: resp.StatusCode}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		res.err = responseError(resp, res.mediaType, data)
	}
	return res
}

// Error is the request's error: a *errors.StatusError when the server
// answered with a failure, another error when it could not be asked.
func (r Result) Error() error { return r.err }

// StatusCode is the response's HTTP code, 0 when there was no response.
func (r Result) StatusCode() int { return r.statusCode }

// ContentType is the response's media type, without parameters.
func (r Result) ContentType() string { return r.mediaType }

// Raw returns the response body and the request's error.
func (r Result) Raw() ([]byte, error) { return r.body, r.err }

// Into decodes the response body into out by the response's Content-Type:
// a protobuf body (which must carry the envelope) into a protobuf.Message,
// whose TypeMeta it fills from the envelope, and JSON into anything.
func (r Result) Into(out any) error {
	if r.err != nil {
		return r.err
	}
	if len(r.body) == 0 {
		return fmt.Errorf("rest: the %d response has no body to decode", r.statusCode)
	}
	return decode(r.mediaType, r.body, out)
}

// decode decodes data of mediaType into out.
func decode(mediaType string, data []byte, out any) error {
	switch {
	case isProtobuf(mediaType):
		m, ok := out.(protobuf.Message)
		if !ok {
			return fmt.Errorf("rest: the response is %s, which %T cannot hold; ask for %s with AcceptContentTypes", mediaType, out, ContentTypeJSON)
		}
		apiVersion, kind, err := protobuf.DecodeInto(data, m)
		if err != nil {
			return fmt.Errorf("rest: decoding the %s response: %w", mediaType, err)
		}
		if o, ok := out.(interface{ GetTypeMeta() *meta.TypeMeta }); ok {
			tm := o.GetTypeMeta()
			tm.APIVersion, tm.Kind = apiVersion, kind
		}
		return nil
	case isJSON(mediaType):
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("rest: decoding the JSON response: %w", err)
		}
		return nil
	}
	return fmt.Errorf("rest: cannot decode a response of type %q", mediaType)
}

// mediaTypeOf returns a Content-Type's media type, lowercased, without
// parameters.
func mediaTypeOf(contentType string) string {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

func isProtobuf(mt string) bool {
	return mt == protobuf.MediaType || mt == protobuf.UpstreamMediaType
}

// isJSON accepts a missing Content-Type as JSON, as upstream's clients do.
func isJSON(mt string) bool { return mt == "" || mt == ContentTypeJSON }

// responseError turns a failed response into a *errors.StatusError: the
// Status it carries, or one made from its code.
func responseError(resp *http.Response, mediaType string, data []byte) error {
	if st, ok := decodeStatus(mediaType, data); ok {
		if st.Code == 0 {
			st.Code = int32(resp.StatusCode)
		}
		return apierrors.FromStatus(st)
	}
	secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	return apierrors.FromHTTPStatus(int32(resp.StatusCode), genericMessage(resp.StatusCode, mediaType, data), int32(secs))
}

// decodeStatus decodes data as a Status, reporting whether it is one.
func decodeStatus(mediaType string, data []byte) (meta.Status, bool) {
	var st meta.Status
	if len(data) == 0 {
		return st, false
	}
	if err := decode(mediaType, data, &st); err != nil {
		return st, false
	}
	return st, st.Kind == "Status"
}

// genericMessage describes a failure whose body is not a Status, quoting a
// short text body.
func genericMessage(code int, mediaType string, data []byte) string {
	msg := fmt.Sprintf("the server responded with %d %s", code, http.StatusText(code))
	textual := mediaType == "" || isJSON(mediaType) || strings.HasPrefix(mediaType, "text/")
	body := strings.TrimSpace(string(data))
	if !textual || body == "" || !utf8.ValidString(body) {
		return msg
	}
	const limit = 512
	if len(body) > limit {
		body = strings.ToValidUTF8(body[:limit], "") + "..."
	}
	return msg + ": " + body
}
