package v1

import (
	"bytes"
	"encoding/json"
	"testing"

	"platform.io/client/api/apitest"
	corev1 "platform.io/client/api/core/v1"
)

func TestTags(t *testing.T) {
	apitest.CheckTags(t, PriorityClass{}, PriorityClassList{})
}

const highClass = `{
  "apiVersion": "scheduling.platform.io/v1",
  "kind": "PriorityClass",
  "metadata": {"name": "high", "resourceVersion": "12"},
  "value": 1000,
  "globalDefault": true,
  "description": "for the important things",
  "preemptionPolicy": "Never"
}`

func TestPriorityClassRoundTrip(t *testing.T) {
	pc := apitest.RoundTripJSON[PriorityClass](t, highClass)
	if pc.Name != "high" || pc.Value != 1000 || !pc.GlobalDefault || pc.Description != "for the important things" {
		t.Errorf("decoded %+v", pc)
	}
	if pc.PreemptionPolicy == nil || *pc.PreemptionPolicy != corev1.PreemptNever {
		t.Errorf("preemptionPolicy = %v", pc.PreemptionPolicy)
	}
	list := apitest.RoundTripJSON[PriorityClassList](t, `{"apiVersion":"scheduling.platform.io/v1","kind":"PriorityClassList","metadata":{"resourceVersion":"13"},"items":[`+highClass+`]}`)
	if len(list.Items) != 1 || list.Items[0].Name != "high" {
		t.Errorf("list = %+v", list)
	}
}

// TestZeroValueIsWritten checks that "value": 0 is kept in JSON, as
// upstream writes it (the field has no omitempty).
func TestZeroValueIsWritten(t *testing.T) {
	out, err := json.Marshal(&PriorityClass{})
	if err != nil || !bytes.Contains(out, []byte(`"value":0`)) || bytes.Contains(out, []byte("globalDefault")) {
		t.Errorf("encoded %s, %v", out, err)
	}
}

// TestProtobufNumbers checks the field numbers against upstream's wire
// format, byte for byte after the metadata.
func TestProtobufNumbers(t *testing.T) {
	never := corev1.PreemptNever
	pc := &PriorityClass{Value: 1000, GlobalDefault: true, Description: "d", PreemptionPolicy: &never}
	want := []byte{0x10, 0xe8, 0x07, 0x18, 0x01, 0x22, 1, 'd', 0x2a, 5, 'N', 'e', 'v', 'e', 'r'}
	got := pc.MarshalProto(nil)
	if !bytes.HasSuffix(got, want) {
		t.Errorf("got % x\nwant suffix % x", got, want)
	}
	var back PriorityClass
	if err := back.UnmarshalProto(got); err != nil || back.Value != 1000 || !back.GlobalDefault || back.Description != "d" || *back.PreemptionPolicy != never {
		t.Errorf("decoded %+v, %v", back, err)
	}
	neg := &PriorityClass{Value: -5}
	var negBack PriorityClass
	if err := negBack.UnmarshalProto(neg.MarshalProto(nil)); err != nil || negBack.Value != -5 {
		t.Errorf("negative value decoded as %d, %v", negBack.Value, err)
	}
}

func TestSystemClasses(t *testing.T) {
	classes := SystemPriorityClasses()
	want := map[string]int32{"system-node-critical": 2000001000, "system-cluster-critical": 2000000000}
	if len(classes) != len(want) {
		t.Fatalf("%d system classes, want %d", len(classes), len(want))
	}
	for _, pc := range classes {
		if want[pc.Name] != pc.Value || pc.GlobalDefault || pc.Description == "" {
			t.Errorf("%s: value %d, globalDefault %v, description %q", pc.Name, pc.Value, pc.GlobalDefault, pc.Description)
		}
		if got, ok := SystemPriorityClass(pc.Name); !ok || got.Value != pc.Value {
			t.Errorf("SystemPriorityClass(%q) = %v, %v", pc.Name, got, ok)
		}
	}
	if _, ok := SystemPriorityClass("system-other"); ok {
		t.Error("system-other is not a built-in class")
	}
	if HighestUserDefinablePriority != 1000000000 || SystemCriticalPriority != 2000000000 {
		t.Errorf("ranges %d %d", HighestUserDefinablePriority, SystemCriticalPriority)
	}
}

func TestRegister(t *testing.T) {
	if SchemeGroupVersion.String() != "scheduling.platform.io/v1" || Resource("priorityclasses").String() != "priorityclasses.scheduling.platform.io" {
		t.Errorf("group version %s", SchemeGroupVersion)
	}
}
