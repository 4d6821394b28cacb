package review

import (
	"encoding/json"
	"errors"
	"fmt"

	admv1 "platform.io/client/api/admission/v1"
	admv1beta1 "platform.io/client/api/admission/v1beta1"
	"platform.io/client/api/meta"
)

// Versions are the AdmissionReview versions this server speaks.
var Versions = []string{"v1", "v1beta1"}

// upstreamGroup is the group upstream's webhooks answer in; a response in
// it is accepted as the same version of ours.
const upstreamGroup = "admission.k8s.io"

// ErrNoVersion: none of the webhook's admissionReviewVersions is spoken here.
var ErrNoVersion = errors.New("webhook does not accept any AdmissionReview version this server sends")

// Choose returns the first of accepted that this server speaks.
func Choose(accepted []string) (string, error) {
	for _, a := range accepted {
		for _, v := range Versions {
			if a == v {
				return v, nil
			}
		}
	}
	return "", fmt.Errorf("%w: accepted %v, sent %v", ErrNoVersion, accepted, Versions)
}

// Marshal returns the AdmissionReview of version v carrying req.
func Marshal(v string, req *admv1.AdmissionRequest) ([]byte, error) {
	switch v {
	case "v1":
		return json.Marshal(&admv1.AdmissionReview{
			TypeMeta: meta.TypeMeta{APIVersion: admv1.SchemeGroupVersion.String(), Kind: "AdmissionReview"}, Request: req})
	case "v1beta1":
		return json.Marshal(&admv1beta1.AdmissionReview{
			TypeMeta: meta.TypeMeta{APIVersion: admv1beta1.SchemeGroupVersion.String(), Kind: "AdmissionReview"}, Request: req})
	}
	return nil, fmt.Errorf("%w: %q", ErrNoVersion, v)
}

// Response is a webhook's checked answer.
type Response struct {
	Allowed          bool
	Result           *meta.Status
	Patch            []byte
	AuditAnnotations map[string]string
	Warnings         []string
}

// Parse checks body, the answer to a request of version v with uid, and
// returns its response. mutating allows a patch.
func Parse(body []byte, v string, uid meta.UID, mutating bool) (*Response, error) {
	var r admv1.AdmissionReview // both versions share the wire form
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("decode AdmissionReview: %w", err)
	}
	gv := meta.ParseGroupVersion(r.APIVersion)
	if r.Kind != "AdmissionReview" || gv.Version != v || (gv.Group != admv1.GroupName && gv.Group != upstreamGroup) {
		return nil, fmt.Errorf("expected webhook response of %s/%s, Kind=AdmissionReview, got %s, Kind=%s", admv1.GroupName, v, r.APIVersion, r.Kind)
	}
	resp := r.Response
	if resp == nil {
		return nil, errors.New("webhook response was absent")
	}
	if resp.UID != uid {
		return nil, fmt.Errorf("expected response.uid=%q, got %q", uid, resp.UID)
	}
	hasType := resp.PatchType != nil && *resp.PatchType != ""
	switch {
	case !mutating && (len(resp.Patch) > 0 || hasType):
		return nil, errors.New("validating webhook may not return response.patch or response.patchType")
	case len(resp.Patch) > 0 && !hasType && v == "v1":
		return nil, errors.New("webhook returned response.patch but not response.patchType")
	case len(resp.Patch) == 0 && hasType:
		return nil, errors.New("webhook returned response.patchType but not response.patch")
	case hasType && *resp.PatchType != admv1.PatchTypeJSONPatch:
		return nil, fmt.Errorf("webhook returned invalid response.patchType of %q", *resp.PatchType)
	}
	return &Response{Allowed: resp.Allowed, Result: resp.Result, Patch: resp.Patch,
		AuditAnnotations: resp.AuditAnnotations, Warnings: resp.Warnings}, nil
}
