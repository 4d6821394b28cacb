package conversion

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"platform.io/client/api/meta"
)

// Group is the group the ConversionReview is sent in: this server's name
// of the apiextensions group, as admission reviews are sent in
// admission.platform.io. An answer is accepted in this group or in
// UpstreamGroup.
const Group = "apiextensions.platform.io"

// UpstreamGroup is upstream's name of the apiextensions group, which a
// webhook written against upstream's libraries answers in.
const UpstreamGroup = "apiextensions.k8s.io"

// Versions are the ConversionReview versions this server speaks, in the
// order upstream prefers them; v1beta1's wire form is the same as v1's.
var Versions = []string{"v1", "v1beta1"}

// ErrNoVersion: the definition accepts no ConversionReview version spoken here.
var ErrNoVersion = errors.New("no supported conversion review versions")

// Review is a ConversionReview: the request sent, or the answer.
type Review struct {
	meta.TypeMeta `json:",inline"`
	Request       *Request  `json:"request,omitempty"`
	Response      *Response `json:"response,omitempty"`
}

// Request asks for objects in DesiredAPIVersion.
type Request struct {
	UID               meta.UID          `json:"uid"`
	DesiredAPIVersion string            `json:"desiredAPIVersion"`
	Objects           []json.RawMessage `json:"objects"`
}

// Response carries the converted objects, in the order of the request's,
// or the reason they could not be converted.
type Response struct {
	UID              meta.UID          `json:"uid"`
	ConvertedObjects []json.RawMessage `json:"convertedObjects"`
	Result           meta.Status       `json:"result"`
}

// Choose returns the first of the definition's conversionReviewVersions
// this server speaks, as upstream does.
func Choose(accepted []string) (string, error) {
	for _, a := range accepted {
		if slices.Contains(Versions, a) {
			return a, nil
		}
	}
	return "", fmt.Errorf("%w: accepted %v, spoken %v", ErrNoVersion, accepted, Versions)
}

// parseAnswer decodes a webhook's answer to a review of version v with
// uid and returns its converted objects, or why it is not acceptable.
func parseAnswer(body []byte, v string, uid meta.UID) ([]json.RawMessage, error) {
	var r Review
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("decode ConversionReview: %w", err)
	}
	gv := meta.ParseGroupVersion(r.APIVersion)
	if r.Kind != "ConversionReview" || gv.Version != v || (gv.Group != Group && gv.Group != UpstreamGroup) {
		return nil, fmt.Errorf("expected webhook response of %s/%s, Kind=ConversionReview, got %s, Kind=%s", Group, v, r.APIVersion, r.Kind)
	}
	if r.Response == nil {
		return nil, errors.New("no response provided")
	}
	// Upstream checks the uid of v1 answers only; v1beta1 webhooks were
	// never held to it.
	if v == "v1" && r.Response.UID != uid {
		return nil, fmt.Errorf("expected response.uid=%q, got %q", uid, r.Response.UID)
	}
	if res := r.Response.Result; res.Status != meta.StatusSuccess {
		if res.Message != "" {
			return nil, errors.New(res.Message)
		}
		return nil, fmt.Errorf("response.result.status was '%s', not 'Success'", res.Status)
	}
	return r.Response.ConvertedObjects, nil
}
