package protobuf_test

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/codec/protobuf"
)

// The expected bytes below are derived by hand from upstream's
// generated.proto definitions and the rules of its gogo-generated
// marshalers, not produced by this package. A tag byte is
// (field number << 3) | wire type, wire type 0 for varints and 2 for
// length-delimited values (strings, bytes, embedded messages); a length is
// a varint. In field number order, gogo writes a non-pointer string,
// number, bool or message always (an empty string as "<tag> 00", a zero
// number as "<tag> 00", the zero Time as an empty message), a pointer only
// when set, a []byte only when non-nil, nothing for an empty list or map,
// and one {key = 1, value = 2} entry per map key in key order.

// emptyObjectMeta is ObjectMeta{} (18 bytes less the 3 of a name, 3 of a
// namespace): name (1) "", generateName (2) "", namespace (3) "",
// selfLink (4) "", uid (5) "", resourceVersion (6) "", generation (7) 0,
// creationTimestamp (8) the zero Time, an empty message; the pointers,
// maps and lists (9 to 14, 17) are absent.
const emptyObjectMeta = "0a00 1200 1a00 2200 2a00 3200 3800 4200"

// configMapAB is ConfigMap{metadata: {name: "a", namespace: "b"},
// data: {"k": "v"}}:
//
//	0a 12           metadata (1), 18 bytes:
//	  0a 01 61        name "a"
//	  12 00           generateName ""
//	  1a 01 62        namespace "b"
//	  22 00 2a 00 32 00   selfLink, uid, resourceVersion ""
//	  38 00           generation 0
//	  42 00           creationTimestamp: the zero Time, an empty message
//	12 06           data (2), one entry of 6 bytes:
//	  0a 01 6b        key "k"
//	  12 01 76        value "v"
//
// binaryData (3) is empty and immutable (4) nil, so neither is written.
const configMapAB = "0a12 0a0161 1200 1a0162 2200 2a00 3200 3800 4200" + "1206 0a016b 120176"

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.NewReplacer(" ", "", "\n", "", "\t", "").Replace(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkGolden requires m to encode to want, and want to decode into
// something that encodes to want again.
func checkGolden(t *testing.T, name string, m, empty protobuf.Message, want string) {
	t.Helper()
	wantBytes := unhex(t, want)
	if got := protobuf.Marshal(m); !bytes.Equal(got, wantBytes) {
		t.Errorf("%s:\n got % x\nwant % x", name, got, wantBytes)
	}
	if err := empty.UnmarshalProto(wantBytes); err != nil {
		t.Fatalf("%s: decoding the expected bytes: %v", name, err)
	}
	if got := protobuf.Marshal(empty); !bytes.Equal(got, wantBytes) {
		t.Errorf("%s: decoded and re-encoded:\n got % x\nwant % x", name, got, wantBytes)
	}
}

func TestGoldenConfigMap(t *testing.T) {
	cm := &corev1.ConfigMap{
		ObjectMeta: meta.ObjectMeta{Name: "a", Namespace: "b"},
		Data:       map[string]string{"k": "v"},
	}
	checkGolden(t, "ConfigMap", cm, new(corev1.ConfigMap), configMapAB)

	// In the envelope: the prefix "k8s\x00", then Unknown with typeMeta (1)
	// {apiVersion (1) "v1", kind (2) "ConfigMap"} of 15 bytes, raw (2) the
	// 28 bytes above, and contentEncoding (3) and contentType (4) both "",
	// which upstream's NestedMarshalTo writes.
	env := "6b387300" +
		"0a0f 0a027631 1209 436f6e6669674d6170" +
		"121c" + configMapAB +
		"1a00 2200"
	if got, want := protobuf.Encode("v1", "ConfigMap", cm), unhex(t, env); !bytes.Equal(got, want) {
		t.Errorf("envelope:\n got % x\nwant % x", got, want)
	}
}

func TestGoldenObjectMeta(t *testing.T) {
	grace := int64(30)
	om := &meta.ObjectMeta{
		Name:                       "a",
		CreationTimestamp:          meta.NewTime(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)),
		DeletionGracePeriodSeconds: &grace,
		Labels:                     map[string]string{"b": "2", "a": "1"},
		Finalizers:                 []string{"f"},
	}
	// creationTimestamp (8) is Timestamp {seconds (1) 1714557600, the varint
	// a0 a5 c8 b1 06, nanos (2) 0}: upstream's Time keeps whole seconds but
	// still writes nanos. deletionGracePeriodSeconds (10) is 30 (0x1e).
	// labels (11) come sorted: "a" before "b". finalizers (14) "f".
	want := "0a0161 1200 1a00 2200 2a00 3200 3800" +
		"4208 08a0a5c8b106 1000" +
		"501e" +
		"5a06 0a0161 120131" +
		"5a06 0a0162 120132" +
		"720166"
	checkGolden(t, "ObjectMeta", om, new(meta.ObjectMeta), want)
}

func TestGoldenSecret(t *testing.T) {
	s := &corev1.Secret{Data: map[string][]byte{"b": {}, "a": nil}}
	// metadata (1) is the empty ObjectMeta (16 bytes). data (2): an entry
	// whose value is nil has no field 2 at all; an empty, non-nil value is
	// written as an empty field. type (3) is "" and written; stringData (4)
	// is empty and immutable (5) nil.
	want := "0a10" + emptyObjectMeta +
		"1203 0a0161" +
		"1205 0a0162 1200" +
		"1a00"
	checkGolden(t, "Secret", s, new(corev1.Secret), want)
}

func TestGoldenServicePort(t *testing.T) {
	p := &corev1.ServicePort{Name: "http", Protocol: "TCP", Port: -1, TargetPort: intstr.FromString("web")}
	// port (3) -1 is a ten-byte varint, as for every negative int32;
	// targetPort (4) is IntOrString {type (1) 1, intVal (2) 0, strVal (3)
	// "web"}, every field written; nodePort (5) 0 is written; appProtocol
	// (6) is nil.
	want := "0a0468747470 1203544350" +
		"18ffffffffffffffffff01" +
		"2209 0801 1000 1a03776562" +
		"2800"
	checkGolden(t, "ServicePort", p, new(corev1.ServicePort), want)
}

func TestGoldenResourceRequirements(t *testing.T) {
	r := &corev1.ResourceRequirements{Limits: corev1.ResourceList{
		corev1.ResourceMemory: resource.MustParse("64Mi"),
		corev1.ResourceCPU:    resource.MustParse("500m"),
	}}
	// limits (1) is map<string, Quantity>, entries sorted ("cpu" first);
	// each value is the message Quantity {string (1)}.
	want := "0a0d 0a03637075 1206 0a04 3530306d" +
		"0a10 0a066d656d6f7279 1206 0a04 36344d69"
	checkGolden(t, "ResourceRequirements", r, new(corev1.ResourceRequirements), want)
}

func TestGoldenLeaseSpec(t *testing.T) {
	holder := "n"
	renew := meta.MicroTime{Time: time.Unix(1, 2345)}
	l := &coordinationv1.LeaseSpec{HolderIdentity: &holder, RenewTime: &renew}
	// holderIdentity (1) "n"; renewTime (4) is Timestamp {seconds (1) 1,
	// nanos (2) 2000}: MicroTime truncates to microseconds, and 2000 is the
	// varint d0 0f. The other fields are nil pointers.
	want := "0a016e 2205 0801 10d00f"
	checkGolden(t, "LeaseSpec", l, new(coordinationv1.LeaseSpec), want)
}

func TestGoldenAPIResource(t *testing.T) {
	r := &meta.APIResource{Name: "pods", Namespaced: true, Kind: "Pod", Verbs: []string{"get"}}
	// verbs (4) is upstream's message Verbs {repeated string items = 1},
	// written because the list is not nil; shortNames (5) and categories (7)
	// are empty lists and not written; singularName (6), group (8), version
	// (9) and storageVersionHash (10) are "" and written.
	want := "0a04706f6473 1001 1a03506f64 2205 0a03676574 3200 4200 4a00 5200"
	checkGolden(t, "APIResource", r, new(meta.APIResource), want)
}

func TestGoldenWatchEvent(t *testing.T) {
	// object (2) is upstream's RawExtension {bytes raw = 1}: the message is
	// always written, raw only when not nil.
	checkGolden(t, "WatchEvent without object", &meta.WatchEvent{Type: "ADDED"}, new(meta.WatchEvent),
		"0a054144444544 1200")
	checkGolden(t, "WatchEvent", &meta.WatchEvent{Type: "ADDED", Object: []byte("{}")}, new(meta.WatchEvent),
		"0a054144444544 1204 0a027b7d")
}

func TestGoldenLongField(t *testing.T) {
	cm := &corev1.ConfigMap{
		ObjectMeta: meta.ObjectMeta{Name: "a", Namespace: "b"},
		Data:       map[string]string{"k": strings.Repeat("x", 200)},
	}
	// Lengths of 128 and more take two varint bytes: the value is
	// "12 c8 01" and 200 bytes, the entry (3 + 203 = 206 bytes) "12 ce 01".
	want := "0a12 0a0161 1200 1a0162 2200 2a00 3200 3800 4200" +
		"12ce01 0a016b 12c801" + strings.Repeat("78", 200)
	checkGolden(t, "ConfigMap with a long value", cm, new(corev1.ConfigMap), want)
}
