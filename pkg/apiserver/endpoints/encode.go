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
		data, ok, err := protobufBody(v)
		if err != nil {
			v, code = statusOf(err), http.StatusInternalServerError
			data, ok, _ = protobufBody(v)
		}
		if ok {
			writeBytes(q.w, q.r, code, q.out.mediaType, data)
			return
		}
	}
	writeJSON(q.w, q.r, code, v)
}

// fail writes err as a Status in the negotiated format.
func (q *request) fail(err error) {
	st := statusOf(err)
	setRetryAfter(q.w.Header(), st)
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
func protobufBody(v any) ([]byte, bool, error) {
	switch v := v.(type) {
	case *registry.List:
		raw, err := v.ProtoItems()
		if err != nil {
			return nil, false, err
		}
		return protobuf.Encode(v.APIVersion, v.Kind, rawMessage(raw)), true, nil
	case meta.Status:
		return protobuf.Encode("v1", "Status", &v), true, nil
	case interface {
		protobuf.Message
		GetTypeMeta() *meta.TypeMeta
	}:
		tm := v.GetTypeMeta()
		return protobuf.Encode(tm.APIVersion, tm.Kind, v), true, nil
	}
	return nil, false, nil
}

// rawMessage is an already encoded protobuf message.
type rawMessage []byte

func (m rawMessage) MarshalProto(b []byte) []byte { return append(b, m...) }

func (m rawMessage) UnmarshalProto([]byte) error {
	return fmt.Errorf("endpoints: a raw message is only encoded here")
}

// protobufFrame is one event of a protobuf watch stream: a 4-byte
// big-endian length, then a WatchEvent whose object is the enveloped object.
func protobufFrame(typ string, enveloped []byte) []byte {
	ev := &meta.WatchEvent{Type: typ, Object: enveloped}
	msg := ev.MarshalProto(make([]byte, 4, 4+len(enveloped)+32))
	binary.BigEndian.PutUint32(msg, uint32(len(msg)-4))
	return msg
}
