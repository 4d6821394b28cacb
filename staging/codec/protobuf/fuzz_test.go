package protobuf_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/codec/protobuf"
)

// addPodSamples adds the encoding of every sample Pod to f's seeds (the
// committed ones are in testdata/fuzz/<name>).
func addPodSamples(f *testing.F, envelope bool) {
	paths, _ := filepath.Glob(filepath.Join(samplesDir, "core/v1/Pod*.json"))
	for _, path := range paths {
		doc, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		var pod corev1.Pod
		if err := json.Unmarshal(doc, &pod); err != nil {
			f.Fatal(err)
		}
		if envelope {
			f.Add(protobuf.Encode("v1", "Pod", &pod))
		} else {
			f.Add(protobuf.Marshal(&pod))
		}
	}
}

// FuzzUnmarshalPod decodes arbitrary bytes as a Pod: that must never panic,
// and whatever decodes must encode to bytes that decode to the same Pod and
// encode to the same bytes again.
func FuzzUnmarshalPod(f *testing.F) {
	addPodSamples(f, false)
	f.Fuzz(func(t *testing.T, data []byte) {
		var first corev1.Pod
		if err := first.UnmarshalProto(data); err != nil {
			return
		}
		encoded := protobuf.Marshal(&first)
		var second corev1.Pod
		if err := second.UnmarshalProto(encoded); err != nil {
			t.Fatalf("re-decoding % x: %v", encoded, err)
		}
		if diff := cmp.Diff(&first, &second, equalTimes, equalQuantities); diff != "" {
			t.Fatalf("re-decoded Pod differs (-first +second):\n%s", diff)
		}
		if again := protobuf.Marshal(&second); !bytes.Equal(again, encoded) {
			t.Fatalf("re-encoding differs:\n% x\n% x", encoded, again)
		}
	})
}

// raw is a message whose encoding is given.
type raw []byte

func (r raw) MarshalProto(b []byte) []byte { return append(b, r...) }
func (r raw) UnmarshalProto([]byte) error  { return nil }

// FuzzEnvelope opens arbitrary bytes as an envelope: that must never panic,
// and an envelope that opens must close again around the same content.
func FuzzEnvelope(f *testing.F) {
	addPodSamples(f, true)
	f.Add(protobuf.Encode("v1", "ConfigMap", sampleConfigMap()))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = protobuf.DecodeInto(data, new(corev1.ConfigMap))
		apiVersion, kind, content, err := protobuf.Decode(data)
		if err != nil {
			return
		}
		again := protobuf.Encode(apiVersion, kind, raw(content))
		apiVersion2, kind2, content2, err := protobuf.Decode(again)
		if err != nil || apiVersion2 != apiVersion || kind2 != kind || !bytes.Equal(content2, content) {
			t.Fatalf("re-enveloped: %q %q % x %v, want %q %q % x", apiVersion2, kind2, content2, err, apiVersion, kind, content)
		}
	})
}
