package review

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	admv1 "platform.io/client/api/admission/v1"
)

func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		accepted []string
		want     string
	}{
		{[]string{"v1"}, "v1"},
		{[]string{"v1beta1", "v1"}, "v1beta1"},
		{[]string{"v2", "v1beta1"}, "v1beta1"},
		{[]string{"v2"}, ""},
		{nil, ""},
	} {
		got, err := Choose(tc.accepted)
		if got != tc.want || (tc.want == "") != errors.Is(err, ErrNoVersion) {
			t.Errorf("Choose(%v) = %q, %v; want %q", tc.accepted, got, err, tc.want)
		}
	}
}

func TestMarshal(t *testing.T) {
	for _, v := range Versions {
		b, err := Marshal(v, &admv1.AdmissionRequest{UID: "u1", Operation: admv1.Create})
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m["apiVersion"] != "admission.platform.io/"+v || m["kind"] != "AdmissionReview" || m["request"].(map[string]any)["uid"] != "u1" {
			t.Errorf("%s body = %s", v, b)
		}
	}
}

func TestParse(t *testing.T) {
	const head = `{"apiVersion":"admission.platform.io/v1","kind":"AdmissionReview","response":`
	for _, tc := range []struct {
		name     string
		body     string
		version  string
		mutating bool
		err      string // "" means accepted
	}{
		{"allowed", head + `{"uid":"u","allowed":true}}`, "v1", false, ""},
		{"upstream group", `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"u","allowed":true}}`, "v1", false, ""},
		{"v1beta1", `{"apiVersion":"admission.platform.io/v1beta1","kind":"AdmissionReview","response":{"uid":"u","allowed":true,"patch":"W10="}}`, "v1beta1", true, ""},
		{"other version", head + `{"uid":"u","allowed":true}}`, "v1beta1", false, "expected webhook response"},
		{"other kind", `{"apiVersion":"admission.platform.io/v1","kind":"Status"}`, "v1", false, "expected webhook response"},
		{"garbage", `<html>`, "v1", false, "decode AdmissionReview"},
		{"absent", `{"apiVersion":"admission.platform.io/v1","kind":"AdmissionReview"}`, "v1", false, "absent"},
		{"other uid", head + `{"uid":"x","allowed":true}}`, "v1", false, "response.uid"},
		{"patch from validating", head + `{"uid":"u","allowed":true,"patch":"W10=","patchType":"JSONPatch"}}`, "v1", false, "validating webhook"},
		{"patch without type", head + `{"uid":"u","allowed":true,"patch":"W10="}}`, "v1", true, "not response.patchType"},
		{"type without patch", head + `{"uid":"u","allowed":true,"patchType":"JSONPatch"}}`, "v1", true, "not response.patch"},
		{"merge patch", head + `{"uid":"u","allowed":true,"patch":"e30=","patchType":"MergePatch"}}`, "v1", true, "invalid response.patchType"},
		{"mutating patch", head + `{"uid":"u","allowed":true,"patch":"W10=","patchType":"JSONPatch","warnings":["w"]}}`, "v1", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse([]byte(tc.body), tc.version, "u", tc.mutating)
			if tc.err == "" {
				if err != nil || !r.Allowed {
					t.Errorf("Parse = %+v, %v", r, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse error = %v, want one containing %q", err, tc.err)
			}
		})
	}
}
