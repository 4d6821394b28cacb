package v1

import (
	"testing"

	"platform.io/client/api/apitest"
)

func TestReviewTags(t *testing.T) {
	apitest.CheckTags(t, LocalSubjectAccessReview{}, SelfSubjectAccessReview{}, SelfSubjectRulesReview{})
}

func TestRulesRoundTrip(t *testing.T) {
	r := apitest.RoundTripJSON[SelfSubjectRulesReview](t, `{"spec":{"namespace":"ns"},"status":{"resourceRules":[{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}],"nonResourceRules":[{"verbs":["get"],"nonResourceURLs":["/api"]}],"incomplete":true}}`)
	if r.Spec.Namespace != "ns" || len(r.Status.ResourceRules) != 1 || !r.Status.Incomplete {
		t.Fatalf("%+v", r)
	}
}
