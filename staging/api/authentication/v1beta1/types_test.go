package v1beta1

import (
	"testing"

	"platform.io/client/api/apitest"
)

func TestTags(t *testing.T) { apitest.CheckTags(t, TokenReview{}, SelfSubjectReview{}) }

func TestRoundTrip(t *testing.T) {
	tr := apitest.RoundTripJSON[TokenReview](t, `{"spec":{"token":"t","audiences":["a"]},"status":{"authenticated":true,"user":{"username":"u","groups":["g"],"extra":{"k":["v"]}},"audiences":["a"]}}`)
	if tr.Status.User.Extra["k"][0] != "v" {
		t.Fatalf("extra: %+v", tr.Status.User)
	}
}
