package endpoints

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"go.uber.org/zap"
	"google.golang.org/protobuf/encoding/protowire"

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

// writeList streams a list in the negotiated format, item by item, so
// the server holds one item's rendering at a time rather than the whole
// response (a pretty-printed list is still built whole). An error once
// the first bytes are out aborts the response: the client sees a broken
// stream, never a short list that looks complete.
func (q *request) writeList(l *registry.List) {
	proto := q.out.format == formatProtobuf
	if !proto && wantPretty(q.r) {
		writeJSON(q.w, q.r, http.StatusOK, l)
		return
	}
	ct := contentTypeJSON
	if proto {
		ct = q.out.mediaType
	}
	q.w.Header().Set("Content-Type", ct)
	q.w.WriteHeader(http.StatusOK)
	if q.r.Method == http.MethodHead {
		return
	}
	bw := listWriters.Get().(*bufio.Writer)
	bw.Reset(q.w)
	defer func() { bw.Reset(nil); listWriters.Put(bw) }()
	var err error
	if proto {
		err = l.WriteProtobuf(bw)
	} else {
		err = l.WriteJSON(bw)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		q.lg.Info("list response cut short", zap.String("resource", q.store.Resource.Name), zap.Error(err))
		panic(http.ErrAbortHandler)
	}
}

// listWriters buffer list responses on their way to the connection.
var listWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 32<<10) }}

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

// protobufFrameHead appends to b what comes before the enveloped object of
// size n in one event of a protobuf watch stream: a 4-byte big-endian
// length, then a WatchEvent (field 1 the type, field 2 a RawExtension
// whose field 1 is the object) up to the object's bytes. Writing the head
// and then the object spares a copy of the object per watcher.
func protobufFrameHead(b []byte, typ string, n int) []byte {
	raw := 1 + protowire.SizeVarint(uint64(n)) + n
	size := 1 + protowire.SizeVarint(uint64(len(typ))) + len(typ) + 1 + protowire.SizeVarint(uint64(raw)) + raw
	b = binary.BigEndian.AppendUint32(b, uint32(size))
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, typ)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(raw))
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	return protowire.AppendVarint(b, uint64(n))
}
