package apiserver

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"

	"platform.io/platform/test/integration/framework"
)

const pbType = "application/vnd.platform.protobuf"

var (
	sendProto   = framework.Header{"Content-Type": pbType}
	acceptProto = framework.Header{"Accept": pbType}
)

func protoConfigMap(name string) []byte {
	cm := &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: name}, Data: map[string]string{"k": "v"}}
	return protobuf.Encode("v1", "ConfigMap", cm)
}

// TestContentNegotiation_Protobuf: protobuf bodies are accepted on POST and
// PUT (in our media type and upstream's), responses follow Accept, and a
// body without the prefix or cut short is a 400 that stores nothing.
func TestContentNegotiation_Protobuf(t *testing.T) {
	s := framework.Start(t)
	cm := "/api/v1/namespaces/default/configmaps"
	// A protobuf body; the response follows Accept (JSON by default).
	got := s.Do(t, "POST", cm, protoConfigMap("pb"), sendProto).Expect(t, http.StatusCreated).Map(t)
	if get(got, "data", "k") != "v" {
		t.Fatalf("created from protobuf: %v", got)
	}
	s.Do(t, "POST", cm, protoConfigMap("upstream"), framework.Header{"Content-Type": "application/vnd.kubernetes.protobuf"}).Expect(t, http.StatusCreated)
	// A protobuf response: the envelope, with the kind in it.
	r := s.Do(t, "GET", cm+"/pb", nil, acceptProto).Expect(t, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != pbType {
		t.Fatalf("Content-Type %q", ct)
	}
	var back corev1.ConfigMap
	apiVersion, kind, err := protobuf.DecodeInto(r.Body, &back)
	if err != nil || apiVersion != "v1" || kind != "ConfigMap" || back.Data["k"] != "v" || back.ResourceVersion == "" {
		t.Fatalf("decoded %s %s %+v: %v", apiVersion, kind, back, err)
	}
	// Replace in protobuf.
	back.Data["k"] = "w"
	s.Do(t, "PUT", cm+"/pb", protobuf.Encode("v1", "ConfigMap", &back), sendProto).Expect(t, http.StatusOK)
	// A list in protobuf.
	r = s.Do(t, "GET", cm, nil, acceptProto).Expect(t, http.StatusOK)
	var list corev1.ConfigMapList
	if _, kind, err := protobuf.DecodeInto(r.Body, &list); err != nil || kind != "ConfigMapList" || len(list.Items) != 2 {
		t.Fatalf("list: %s %d items, %v", kind, len(list.Items), err)
	}
	// Errors come back as a protobuf Status.
	r = s.Do(t, "GET", cm+"/missing", nil, acceptProto).Expect(t, http.StatusNotFound)
	var st meta.Status
	if _, kind, err := protobuf.DecodeInto(r.Body, &st); err != nil || kind != "Status" || st.Reason != meta.StatusReasonNotFound || st.Code != 404 {
		t.Fatalf("status: %s %+v %v", kind, st, err)
	}
	// Bad bodies: no prefix, truncated, wrong kind. Nothing is stored.
	good := protoConfigMap("bad")
	for name, body := range map[string][]byte{
		"no prefix":  good[4:],
		"truncated":  good[:len(good)-3],
		"garbage":    append([]byte{0x6b, 0x38, 0x73, 0x00}, 0xff, 0xff, 0xff),
		"wrong kind": protobuf.Encode("v1", "Secret", &corev1.Secret{ObjectMeta: meta.ObjectMeta{Name: "bad"}}),
	} {
		t.Run(name, func(t *testing.T) {
			s.Do(t, "POST", cm, body, sendProto).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
			s.Do(t, "GET", cm+"/bad", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
		})
	}
	// Patches are JSON only.
	s.Do(t, "PATCH", cm+"/pb", good, sendProto).ExpectStatus(t, http.StatusUnsupportedMediaType, "UnsupportedMediaType")
}

// TestContentNegotiation_406: an Accept with nothing the server speaks.
func TestContentNegotiation_406(t *testing.T) {
	s := framework.Start(t)
	st := s.Do(t, "GET", "/api/v1/namespaces/default", nil, framework.Header{"Accept": "application/xml, text/html"}).ExpectStatus(t, http.StatusNotAcceptable, "NotAcceptable")
	if !strings.Contains(st["message"].(string), pbType) {
		t.Fatalf("406 does not list what is supported: %v", st["message"])
	}
	// Nothing is done for a write that would be answered in a format we lack.
	s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"x"}}`, framework.Header{"Accept": "application/xml"}).Expect(t, http.StatusNotAcceptable)
	s.Do(t, "GET", "/api/v1/namespaces/default/configmaps/x", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
	// Fallbacks and q-values: the first supported type wins.
	r := s.Do(t, "GET", "/api/v1/namespaces/default", nil, framework.Header{"Accept": "application/xml;q=1, application/json;q=0.5"}).Expect(t, http.StatusOK)
	if r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("fallback Content-Type %q", r.Header.Get("Content-Type"))
	}
}

// TestWatch_Protobuf: a watch in protobuf is a stream of length-prefixed
// WatchEvents whose objects are enveloped.
func TestWatch_Protobuf(t *testing.T) {
	s := framework.Start(t)
	req, _ := http.NewRequest("GET", s.URL+"/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=5", nil)
	req.Header.Set("Accept", pbType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != pbType+";stream=watch" {
		t.Fatalf("Content-Type %q", ct)
	}
	s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", protoConfigMap("w"), sendProto).Expect(t, http.StatusCreated)
	rd := bufio.NewReader(resp.Body)
	frame := make(chan []byte, 1)
	go func() {
		var n uint32
		if binary.Read(rd, binary.BigEndian, &n) != nil {
			close(frame)
			return
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(rd, b); err != nil {
			close(frame)
			return
		}
		frame <- b
	}()
	var b []byte
	select {
	case b = <-frame:
	case <-time.After(10 * time.Second):
		t.Fatal("no frame within 10s")
	}
	var ev meta.WatchEvent
	if err := ev.UnmarshalProto(b); err != nil || ev.Type != "ADDED" {
		t.Fatalf("event %+v: %v", ev, err)
	}
	var cm corev1.ConfigMap
	if _, kind, err := protobuf.DecodeInto(ev.Object, &cm); err != nil || kind != "ConfigMap" || cm.Name != "w" || !bytes.HasPrefix(ev.Object, protobuf.Prefix()) {
		t.Fatalf("event object %s %+v: %v", kind, cm, err)
	}
}
