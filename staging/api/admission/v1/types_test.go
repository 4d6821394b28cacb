package v1

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/apitest"
)

func TestTags(t *testing.T) {
	apitest.CheckTags(t, AdmissionReview{})
}

const review = `{
  "apiVersion": "admission.platform.io/v1",
  "kind": "AdmissionReview",
  "request": {
    "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
    "kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
    "resource": {"group": "apps", "version": "v1", "resource": "deployments"},
    "subResource": "scale",
    "requestKind": {"group": "apps", "version": "v1", "kind": "Deployment"},
    "requestResource": {"group": "apps", "version": "v1", "resource": "deployments"},
    "requestSubResource": "scale",
    "name": "web",
    "namespace": "default",
    "operation": "UPDATE",
    "userInfo": {"username": "admin", "groups": ["system:masters"]},
    "object": {"apiVersion":"autoscaling/v1","kind":"Scale"},
    "oldObject": {"apiVersion":"autoscaling/v1","kind":"Scale"},
    "dryRun": true,
    "options": {"apiVersion":"meta.platform.io/v1","kind":"UpdateOptions"}
  },
  "response": {
    "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
    "allowed": false,
    "status": {"message": "no", "code": 403},
    "patch": "W10=",
    "patchType": "JSONPatch",
    "auditAnnotations": {"k": "v"},
    "warnings": ["careful"]
  }
}`

func TestReviewRoundTrip(t *testing.T) {
	r := apitest.RoundTripJSON[AdmissionReview](t, review)
	if r.Request.Kind.Kind != "Deployment" || r.Request.RequestResource.Resource != "deployments" || !*r.Request.DryRun {
		t.Errorf("request = %+v", r.Request)
	}
	if r.Response.Result.Code != 403 || string(r.Response.Patch) != "[]" || *r.Response.PatchType != PatchTypeJSONPatch {
		t.Errorf("response = %+v", r.Response)
	}
	var back AdmissionReview
	if err := back.UnmarshalProto(r.MarshalProto(nil)); err != nil {
		t.Fatal(err)
	}
	back.TypeMeta = r.TypeMeta
	want, _ := json.Marshal(r) // raw objects are compacted by the round trip
	got, _ := json.Marshal(&back)
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("protobuf round trip (-want +got):\n%s", d)
	}
}
