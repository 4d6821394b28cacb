package endpoints

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/jsontree"
	"platform.io/client/api/meta"
)

const contentTypeJSON = "application/json"

// writeJSON writes v with the given status code, indented when pretty is set.
func writeJSON(w http.ResponseWriter, r *http.Request, code int, v any) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer putJSONBuffer(buf)
	if err := encodeJSON(buf, v, wantPretty(r)); err != nil {
		WriteError(w, r, apierrors.NewInternalError(fmt.Errorf("encode response: %w", err)))
		return
	}
	w.Header().Set("Content-Type", contentTypeJSON)
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
}

// encodeJSON writes v to buf as a json.Encoder without HTML escaping
// does (indented when pretty), followed by a newline. A value that writes
// its own JSON (a custom object) is appended directly, without
// encoding/json's second pass over what it wrote.
func encodeJSON(buf *bytes.Buffer, v any, pretty bool) error {
	if !pretty {
		if _, ok := v.(jsontree.Appender); ok {
			// Straight into the buffer: a pooled buffer grows once to the
			// size of the responses it holds.
			b, err := jsontree.Append(buf.AvailableBuffer(), v)
			if err != nil {
				return err
			}
			buf.Write(b)
			buf.WriteByte('\n')
			return nil
		}
	}
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if pretty {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}

// jsonBuffers holds the buffers responses are encoded into; a buffer is
// reused once its bytes are written (the ResponseWriter copies them).
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer keeps the buffers of large responses (lists) out of
// the pool, so it does not pin their memory.
const maxPooledBuffer = 64 << 10

func putJSONBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	b.Reset()
	jsonBuffers.Put(b)
}

func wantPretty(r *http.Request) bool {
	if v := r.URL.Query().Get("pretty"); v != "" {
		return isTrue(v)
	}
	return false
}

// WriteError writes err as a JSON Status, for failures before negotiation
// and for the server's filters.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	st := statusOf(err)
	setRetryAfter(w.Header(), st)
	writeJSON(w, r, int(st.Code), st)
}

// setRetryAfter copies a Status's retry hint into the Retry-After header.
func setRetryAfter(h http.Header, st meta.Status) {
	if d := st.Details; d != nil && d.RetryAfterSeconds > 0 {
		h.Set("Retry-After", strconv.Itoa(int(d.RetryAfterSeconds)))
	}
}

// successStatus is the Status a delete returns when the object is gone.
func successStatus(group, resource, name string, uid meta.UID) meta.Status {
	return meta.Status{
		TypeMeta: meta.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   meta.StatusSuccess,
		Details:  &meta.StatusDetails{Name: name, Group: group, Kind: resource, UID: uid},
	}
}
