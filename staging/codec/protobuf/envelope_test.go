package protobuf_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
)

func sampleConfigMap() *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: meta.ObjectMeta{Name: "web-config", Namespace: "shop", Labels: map[string]string{"app": "web"}},
		Data:       map[string]string{"log-level": "info"},
		BinaryData: map[string][]byte{"logo.png": {0x89, 'P', 'N', 'G'}},
	}
}

func TestEnvelopeRoundTrip(t *testing.T) {
	data := protobuf.Encode("v1", "ConfigMap", sampleConfigMap())
	if !bytes.HasPrefix(data, []byte("k8s\x00")) || !bytes.Equal(protobuf.Prefix(), []byte{0x6b, 0x38, 0x73, 0x00}) {
		t.Fatalf("no prefix: % x", data[:8])
	}
	apiVersion, kind, raw, err := protobuf.Decode(data)
	if err != nil || apiVersion != "v1" || kind != "ConfigMap" {
		t.Fatalf("Decode = %q, %q, %v", apiVersion, kind, err)
	}
	if !bytes.Equal(raw, protobuf.Marshal(sampleConfigMap())) {
		t.Errorf("raw is not the object's encoding")
	}
	var cm corev1.ConfigMap
	if apiVersion, kind, err := protobuf.DecodeInto(data, &cm); err != nil || apiVersion != "v1" || kind != "ConfigMap" {
		t.Fatalf("DecodeInto = %q, %q, %v", apiVersion, kind, err)
	}
	if cm.Name != "web-config" || cm.Labels["app"] != "web" || cm.Data["log-level"] != "info" || string(cm.BinaryData["logo.png"]) != "\x89PNG" {
		t.Errorf("decoded %+v", cm)
	}
}

func TestEnvelopeWithoutPrefix(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("k8s"), []byte(`{"kind":"ConfigMap"}`), protobuf.Marshal(sampleConfigMap())} {
		_, _, _, err := protobuf.Decode(data)
		if !errors.Is(err, protobuf.ErrNoPrefix) || !strings.Contains(err.Error(), "6b 38 73 00") {
			t.Errorf("Decode(% .8x) = %v, want an error naming the prefix", data, err)
		}
		if _, _, err := protobuf.DecodeInto(data, new(corev1.ConfigMap)); !errors.Is(err, protobuf.ErrNoPrefix) {
			t.Errorf("DecodeInto(% .8x) = %v", data, err)
		}
	}
}

func TestEnvelopeTruncated(t *testing.T) {
	data := protobuf.Encode("v1", "ConfigMap", sampleConfigMap())
	// Cutting the envelope anywhere inside its typeMeta or raw field leaves
	// a length that runs past the end. (A cut between two fields, after
	// typeMeta's 4+17 bytes or between the trailing empty fields, leaves a
	// valid, shorter message.)
	end := len(data) - 4
	for n := 5; n < end; n++ {
		if n == 4+17 {
			continue
		}
		_, _, _, err := protobuf.Decode(data[:n])
		if !errors.Is(err, protobuf.ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("Decode of %d of %d bytes = %v, want truncated", n, len(data), err)
		}
	}
}

func TestEnvelopeTruncatedObject(t *testing.T) {
	raw := protobuf.Marshal(sampleConfigMap())
	for n := 1; n < len(raw); n++ {
		err := new(corev1.ConfigMap).UnmarshalProto(raw[:n])
		if err == nil {
			continue // a cut between two fields is a valid, shorter message
		}
		if !errors.Is(err, protobuf.ErrTruncated) {
			t.Errorf("decoding %d of %d bytes: %v, want truncated", n, len(raw), err)
		}
	}
}

// envelope builds an envelope by hand with the given content fields.
func envelope(contentEncoding, contentType string) []byte {
	b := append(protobuf.Prefix(), 0x0a, 0x06, 0x0a, 0x02, 'v', '1', 0x12, 0x00)
	b = append(b, 0x12, 0x00)
	b = append(b, 0x1a, byte(len(contentEncoding)))
	b = append(b, contentEncoding...)
	b = append(b, 0x22, byte(len(contentType)))
	return append(b, contentType...)
}

func TestEnvelopeContent(t *testing.T) {
	if _, _, _, err := protobuf.Decode(envelope("gzip", "")); err == nil || !strings.Contains(err.Error(), `unsupported content encoding "gzip"`) {
		t.Errorf("gzip: %v", err)
	}
	if _, _, _, err := protobuf.Decode(envelope("", "application/json")); err == nil || !strings.Contains(err.Error(), "content type") {
		t.Errorf("json content: %v", err)
	}
	for _, ct := range []string{"", protobuf.MediaType, protobuf.UpstreamMediaType} {
		apiVersion, _, raw, err := protobuf.Decode(envelope("", ct))
		if err != nil || apiVersion != "v1" || raw == nil || len(raw) != 0 {
			t.Errorf("content type %q: %q %x %v", ct, apiVersion, raw, err)
		}
	}
}

func TestEnvelopeSkipsUnknownFields(t *testing.T) {
	data := protobuf.Encode("v1", "ConfigMap", sampleConfigMap())
	// Field 9, a varint, then field 10, a fixed64, then field 11, a fixed32.
	data = append(data, 0x48, 0x96, 0x01, 0x51, 1, 2, 3, 4, 5, 6, 7, 8, 0x5d, 1, 2, 3, 4)
	var cm corev1.ConfigMap
	if _, _, err := protobuf.DecodeInto(data, &cm); err != nil || cm.Name != "web-config" {
		t.Errorf("DecodeInto with unknown fields: %v", err)
	}
}

func TestMediaTypes(t *testing.T) {
	if protobuf.MediaType != "application/vnd.platform.protobuf" || protobuf.UpstreamMediaType != "application/vnd.kubernetes.protobuf" {
		t.Errorf("media types %q %q", protobuf.MediaType, protobuf.UpstreamMediaType)
	}
}
