package v1

import (
	"testing"

	"platform.io/client/api/apitest"
)

func TestTags(t *testing.T) { apitest.CheckTags(t, TokenReview{}, TokenRequest{}) }

func TestRoundTrip(t *testing.T) {
	tr := apitest.RoundTripJSON[TokenReview](t, `{"spec":{"token":"t"},"status":{"authenticated":true,"user":{"username":"u","groups":["g"],"extra":{"k":["v"]}}}}`)
	if tr.Status.User.Extra["k"][0] != "v" {
		t.Fatalf("extra: %+v", tr.Status.User)
	}
}

func TestTokenRequestRoundTrip(t *testing.T) {
	tr := apitest.RoundTripJSON[TokenRequest](t, `{"spec":{"audiences":["a"],"expirationSeconds":600,"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"p","uid":"u"}},"status":{"token":"t","expirationTimestamp":"2026-01-02T03:04:05Z"}}`)
	if *tr.Spec.ExpirationSeconds != 600 || tr.Spec.BoundObjectRef.UID != "u" || tr.Status.Token != "t" {
		t.Fatalf("decoded %+v", tr)
	}
}
