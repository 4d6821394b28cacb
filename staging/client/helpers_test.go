package client

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
	"platform.io/client/rest"
)

// seen is one request a fakeServer received.
type seen struct {
	Method, Path, Query string
	ContentType, Accept string
	Body                []byte
}

// fakeServer records every request and answers with reply.
type fakeServer struct {
	mu   sync.Mutex
	reqs []seen
	srv  *httptest.Server
}

func newFakeServer(t *testing.T, reply http.HandlerFunc) *fakeServer {
	t.Helper()
	f := &fakeServer{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.reqs = append(f.reqs, seen{
			Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
			ContentType: r.Header.Get("Content-Type"), Accept: r.Header.Get("Accept"), Body: body,
		})
		f.mu.Unlock()
		reply(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.reqs...)
}

// restClient returns an unthrottled rest.Client for the server, sending
// bodies as contentType ("" for protobuf).
func (f *fakeServer) restClient(t *testing.T, contentType string) *rest.Client {
	t.Helper()
	rc, err := rest.NewClient(&rest.Config{Host: f.srv.URL, QPS: -1, MaxRetries: -1, ContentType: contentType})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.CloseIdleConnections)
	return rc
}

// replyJSON answers every request with the JSON of v.
func replyJSON(v any) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", rest.ContentTypeJSON)
		_ = json.NewEncoder(w).Encode(v)
	}
}

// replyProto answers every request with m in the protobuf envelope.
func replyProto(apiVersion, kind string, m protobuf.Message) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", protobuf.MediaType)
		_, _ = w.Write(protobuf.Encode(apiVersion, kind, m))
	}
}

// protoFrame is one event of a protobuf watch stream.
func protoFrame(typ string, enveloped []byte) []byte {
	ev := &meta.WatchEvent{Type: typ, Object: enveloped}
	msg := ev.MarshalProto(make([]byte, 4))
	binary.BigEndian.PutUint32(msg, uint32(len(msg)-4))
	return msg
}
