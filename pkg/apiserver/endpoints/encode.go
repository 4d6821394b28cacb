package endpoints

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"

	"platform.io/platform/pkg/apiserver/registry"
)

// write encodes v in the negotiated format.
func (q *request) write(code int, v any) {
	if q.out.format == formatProtobuf {
		if data, ok := protobufBody(v); ok {
			writeBytes(q.w, q.r, code, q.out.mediaType, data)
			return
		}
	}
	writeJSON(q.w, q.r, code, v)
}

// fail writes err as a Status in the negotiated format.
func (q *request) fail(err error) {
	st := statusOf(err)
	if d := st.Details; d != nil && d.RetryAfterSeconds > 0 {
		q.w.Header().Set("Retry-After", strconv.Itoa(int(d.RetryAfterSeconds)))
	}
	q.write(int(st.Code), st)
}

// statusOf returns the Status of err; errors that are not StatusErrors are
// internal errors, which a client can never cause.
func statusOf(err error) meta.Status {
	var se *apierrors.StatusError
	if !errors.As(err, &se) {
		se = apierrors.NewInternalError(err)
	}
	st := se.Status()
	if st.Code == 0 {
		st.Code = http.StatusInternalServerError
	}
	return st
}

func writeBytes(w http.ResponseWriter, r *http.Request, code int, contentType string, data []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		w.Write(data)
	}
}

// protobufBody encodes v in the protobuf envelope, if it has a protobuf form.
func protobufBody(v any) ([]byte, bool) {
	switch v := v.(type) {
	case *registry.List:
		return protobuf.Encode(v.APIVersion, v.Kind, listMessage{v}), true
	case meta.Status:
		return protobuf.Encode("v1", "Status", &v), true
	case interface {
		protobuf.Message
		GetTypeMeta() *meta.TypeMeta
	}:
		tm := v.GetTypeMeta()
		return protobuf.Encode(tm.APIVersion, tm.Kind, v), true
	}
	return nil, false
}

// listMessage encodes a generic list as its typed list message would be:
// metadata is field 1, each item field 2.
type listMessage struct{ l *registry.List }

func (m listMessage) MarshalProto(b []byte) []byte {
	b = protobuf.AppendMessage(b, 1, &m.l.ListMeta)
	for _, item := range m.l.Items {
		b = protobuf.AppendMessage(b, 2, item.(protobuf.Message))
	}
	return b
}

func (m listMessage) UnmarshalProto([]byte) error {
	return fmt.Errorf("endpoints: a list is only encoded here")
}

// protobufFrame is one event of a protobuf watch stream: a 4-byte
// big-endian length, then a WatchEvent whose object is the enveloped object.
func protobufFrame(typ string, obj any) ([]byte, error) {
	raw, ok := protobufBody(obj)
	if !ok {
		return nil, fmt.Errorf("endpoints: %T has no protobuf form", obj)
	}
	ev := &meta.WatchEvent{Type: typ, Object: raw}
	msg := ev.MarshalProto(make([]byte, 4, 4+len(raw)+32))
	binary.BigEndian.PutUint32(msg, uint32(len(msg)-4))
	return msg, nil
}
