package v1beta1

import (
	"testing"

	"platform.io/client/api/apitest"
)

func TestTags(t *testing.T) { apitest.CheckTags(t, SubjectAccessReview{}) }

// TestGroupOnTheWire: v1beta1 calls the group list "group".
func TestGroupOnTheWire(t *testing.T) {
	sar := apitest.RoundTripJSON[SubjectAccessReview](t, `{"spec":{"user":"u","group":["g1","g2"],"resourceAttributes":{"verb":"get","resource":"pods"}},"status":{"allowed":true}}`)
	if len(sar.Spec.Groups) != 2 || !sar.Status.Allowed {
		t.Fatalf("%+v", sar)
	}
}
