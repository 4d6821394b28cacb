package audit

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"go.uber.org/zap"
	"sigs.k8s.io/yaml"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/endpoints"
)

// readRequestBody completes the object reference of a resource request
// from its JSON body's metadata (as upstream does from the decoded object,
// at every level), and with record puts the body into ev.RequestObject as
// JSON (a YAML apply patch is converted; a protobuf body is left out). The
// body is read up to the server's request size limit and given back to the
// handler unchanged; a larger body is not recorded, the handler refuses
// it. Without record, only a JSON create's body is read (its name is not
// in the path).
func readRequestBody(lg *zap.Logger, r *http.Request, ev *auditv1.Event, record, omitManagedFields bool) {
	if !record && (r.Method != http.MethodPost || !strings.Contains(r.Header.Get("Content-Type"), "json")) {
		return
	}
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return
	}
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, endpoints.MaxRequestBodyBytes+1))
	r.Body = readCloser{Reader: io.MultiReader(bytes.NewReader(b), r.Body), Closer: r.Body}
	if err != nil {
		lg.Debug("audit: cannot read request body", zap.Error(err))
		return
	}
	if len(b) == 0 || len(b) > endpoints.MaxRequestBodyBytes {
		return
	}
	if !json.Valid(b) {
		if !strings.Contains(r.Header.Get("Content-Type"), "yaml") {
			return
		}
		if b, err = yaml.YAMLToJSON(b); err != nil {
			return
		}
	}
	completeObjectRef(ev.ObjectRef, b)
	if record {
		ev.RequestObject = objectJSON(b, omitManagedFields)
	}
}

type readCloser struct {
	io.Reader
	io.Closer
}

// completeObjectRef fills the reference's empty fields from the body's
// metadata, as upstream does with the decoded object.
func completeObjectRef(ref *auditv1.ObjectReference, body []byte) {
	if ref == nil {
		return
	}
	var obj struct {
		Metadata struct {
			Name, Namespace, UID, ResourceVersion string
		} `json:"metadata"`
	}
	if json.Unmarshal(body, &obj) != nil {
		return
	}
	m := obj.Metadata
	for _, f := range []struct {
		dst *string
		v   string
	}{
		{&ref.Name, m.Name}, {&ref.Namespace, m.Namespace}, {&ref.UID, m.UID}, {&ref.ResourceVersion, m.ResourceVersion},
	} {
		if *f.dst == "" {
			*f.dst = f.v
		}
	}
}

// objectJSON returns b compacted, without metadata.managedFields (of the
// object or of each list item) when omitManagedFields is set.
func objectJSON(b []byte, omitManagedFields bool) json.RawMessage {
	if omitManagedFields && bytes.Contains(b, []byte(`"managedFields"`)) {
		var obj map[string]any
		if json.Unmarshal(b, &obj) == nil {
			dropManagedFields(obj)
			if items, ok := obj["items"].([]any); ok {
				for _, it := range items {
					if m, ok := it.(map[string]any); ok {
						dropManagedFields(m)
					}
				}
			}
			if out, err := json.Marshal(obj); err == nil {
				return out
			}
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return nil
	}
	return buf.Bytes()
}

func dropManagedFields(obj map[string]any) {
	if md, ok := obj["metadata"].(map[string]any); ok {
		delete(md, "managedFields")
	}
}
