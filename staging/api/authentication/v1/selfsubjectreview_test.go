package v1

import (
	"testing"

	"platform.io/client/api/apitest"
)

func TestSelfSubjectReview(t *testing.T) {
	apitest.CheckTags(t, SelfSubjectReview{})
	r := apitest.RoundTripJSON[SelfSubjectReview](t, `{"status":{"userInfo":{"username":"u","groups":["g"]}}}`)
	if r.Status.UserInfo.Username != "u" {
		t.Fatalf("%+v", r)
	}
}
