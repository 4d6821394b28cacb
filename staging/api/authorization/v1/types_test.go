package v1

import (
	"testing"

	"platform.io/client/api/apitest"
)

func TestTags(t *testing.T) { apitest.CheckTags(t, SubjectAccessReview{}) }

func TestRoundTrip(t *testing.T) {
	sar := apitest.RoundTripJSON[SubjectAccessReview](t, `{"spec":{"nonResourceAttributes":{"path":"/metrics","verb":"get"},"user":"u"},"status":{"allowed":false,"denied":true}}`)
	if sar.Spec.NonResourceAttributes.Path != "/metrics" || !sar.Status.Denied {
		t.Fatalf("%+v", sar)
	}
}
