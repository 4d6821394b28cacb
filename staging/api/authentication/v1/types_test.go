package v1

import (
	"testing"

	"platform.io/client/api/apitest"
)

func TestTags(t *testing.T) { apitest.CheckTags(t, TokenReview{}) }

func TestRoundTrip(t *testing.T) {
	tr := apitest.RoundTripJSON[TokenReview](t, `{"spec":{"token":"t"},"status":{"authenticated":true,"user":{"username":"u","groups":["g"],"extra":{"k":["v"]}}}}`)
	if tr.Status.User.Extra["k"][0] != "v" {
		t.Fatalf("extra: %+v", tr.Status.User)
	}
}
