package client

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protowire"

	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
)

func samplePodList() *corev1.PodList {
	remaining := int64(1)
	return &corev1.PodList{
		ListMeta: meta.ListMeta{ResourceVersion: "12", Continue: "c", RemainingItemCount: &remaining},
		Items: []corev1.Pod{
			{ObjectMeta: meta.ObjectMeta{Name: "a", Namespace: "ns"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}},
			{ObjectMeta: meta.ObjectMeta{Name: "b", Namespace: "ns", Annotations: map[string]string{"k": "v"}}},
			{},
		},
	}
}

// TestMarshalListMatchesGenerated: the generic encoding is byte for byte
// the generated one, and decodes back to the same list.
func TestMarshalListMatchesGenerated(t *testing.T) {
	want := samplePodList()
	l := &List[corev1.Pod]{ListMeta: want.ListMeta, Items: want.Items}
	got := MarshalList[corev1.Pod](nil, l)
	if gen := want.MarshalProto(nil); !bytes.Equal(got, gen) {
		t.Fatalf("MarshalList:\n% x\ngenerated:\n% x", got, gen)
	}
	var back List[corev1.Pod]
	if err := UnmarshalList[corev1.Pod](got, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(l, &back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestUnmarshalList(t *testing.T) {
	lease := func(name string) []byte {
		return (&coordinationv1.Lease{ObjectMeta: meta.ObjectMeta{Name: name}}).MarshalProto(nil)
	}
	listMeta := (&meta.ListMeta{ResourceVersion: "3"}).MarshalProto(nil)
	field := func(num protowire.Number, v []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), v)
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	tests := []struct {
		name    string
		data    []byte
		names   []string
		rv      string
		wantErr string
		is      error
	}{
		{"empty", nil, nil, "", "", nil},
		{"metadata and items", cat(field(1, listMeta), field(2, lease("x")), field(2, lease("y"))), []string{"x", "y"}, "3", "", nil},
		{"items before metadata", cat(field(2, lease("x")), field(1, listMeta)), []string{"x"}, "3", "", nil},
		{"unknown fields skipped", cat(protowire.AppendVarint(protowire.AppendTag(nil, 9, protowire.VarintType), 5), field(7, []byte("z")), field(2, lease("x"))), []string{"x"}, "", "", nil},
		{"truncated item", field(2, lease("x"))[:5], nil, "", "item 0", protobuf.ErrTruncated},
		{"item of the wrong wire type", cat(field(2, lease("x")), protowire.AppendVarint(protowire.AppendTag(nil, 2, protowire.VarintType), 1)), []string{"x"}, "", "item 1", nil},
		{"malformed metadata", field(1, []byte{0x0a, 0x05}), nil, "", "list metadata", protobuf.ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l List[coordinationv1.Lease]
			err := UnmarshalList[coordinationv1.Lease](tt.data, &l)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatal(err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one with %q", err, tt.wantErr)
			case tt.is != nil && !errors.Is(err, tt.is):
				t.Fatalf("error %v does not wrap %v", err, tt.is)
			case err != nil:
				return
			}
			var names []string
			for _, it := range l.Items {
				names = append(names, it.Name)
			}
			if !cmp.Equal(names, tt.names) || l.ResourceVersion != tt.rv {
				t.Errorf("decoded rv %q items %q, want %q %q", l.ResourceVersion, names, tt.rv, tt.names)
			}
		})
	}
}
