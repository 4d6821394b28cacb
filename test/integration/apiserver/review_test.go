package apiserver

import (
	"net/http"
	"strings"
	"testing"

	"platform.io/platform/test/integration/framework"
)

// TestReviews: the review APIs are create-only operations answered by the
// server's current policy (no token authenticators, AlwaysAllow), served
// in both versions and never stored.
func TestReviews(t *testing.T) {
	s := framework.Start(t)
	tr := "/apis/authentication.platform.io/v1/tokenreviews"
	r := s.Do(t, "POST", tr, `{"apiVersion":"authentication.platform.io/v1","kind":"TokenReview","spec":{"token":"secret-token"}}`).Expect(t, http.StatusCreated)
	if strings.Contains(string(r.Body), "secret-token") {
		t.Fatalf("the token was echoed: %s", r.Body)
	}
	if get(r.Map(t), "status", "authenticated") != nil {
		t.Fatalf("a token authenticated with no authenticators: %s", r.Body)
	}
	s.Do(t, "POST", tr, `{"spec":{}}`).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
	s.Do(t, "POST", "/apis/authentication.platform.io/v1beta1/tokenreviews", `{"spec":{"token":"t"}}`).Expect(t, http.StatusCreated)
	s.Do(t, "GET", tr, nil).ExpectStatus(t, http.StatusMethodNotAllowed, "MethodNotAllowed")
	s.Do(t, "GET", tr+"/x", nil).ExpectStatus(t, http.StatusMethodNotAllowed, "MethodNotAllowed")

	sar := "/apis/authorization.platform.io/v1/subjectaccessreviews"
	ok := s.Do(t, "POST", sar, `{"spec":{"user":"alice","resourceAttributes":{"verb":"get","resource":"pods","namespace":"default"}}}`).Expect(t, http.StatusCreated).Map(t)
	if get(ok, "status", "allowed") != true || ok["kind"] != "SubjectAccessReview" {
		t.Fatalf("AlwaysAllow answered %v", ok)
	}
	s.Do(t, "POST", sar, `{"spec":{"user":"alice","nonResourceAttributes":{"path":"/metrics","verb":"get"}}}`).Expect(t, http.StatusCreated)
	s.Do(t, "POST", sar, `{"spec":{"user":"alice"}}`).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	s.Do(t, "POST", sar, `{"spec":{"resourceAttributes":{"verb":"get"}}}`).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")

	beta := s.Do(t, "POST", "/apis/authorization.platform.io/v1beta1/subjectaccessreviews", `{"spec":{"user":"alice","group":["g"],"nonResourceAttributes":{"path":"/metrics","verb":"get"}}}`).Expect(t, http.StatusCreated).Map(t)
	if get(beta, "status", "allowed") != true || beta["apiVersion"] != "authorization.platform.io/v1beta1" {
		t.Fatalf("v1beta1 answered %v", beta)
	}
	local := "/apis/authorization.platform.io/v1/namespaces/default/localsubjectaccessreviews"
	s.Do(t, "POST", local, `{"spec":{"user":"alice","resourceAttributes":{"verb":"get","resource":"pods","namespace":"default"}}}`).Expect(t, http.StatusCreated)
	s.Do(t, "POST", local, `{"spec":{"user":"alice","resourceAttributes":{"verb":"get","resource":"pods","namespace":"other"}}}`).ExpectStatus(t, http.StatusBadRequest, "BadRequest")

	list := s.Do(t, "GET", "/apis/authorization.platform.io/v1", nil).Expect(t, http.StatusOK).Map(t)
	var names []string
	for _, r := range list["resources"].([]any) {
		res := r.(map[string]any)
		if strings.Join(toStrings(res["verbs"]), ",") != "create" {
			t.Fatalf("discovery: %v", res)
		}
		names = append(names, res["name"].(string))
	}
	if got := strings.Join(names, ","); got != "localsubjectaccessreviews,selfsubjectaccessreviews,selfsubjectrulesreviews,subjectaccessreviews" {
		t.Fatalf("discovery lists %s", got)
	}
	// Delegating components look their settings up here.
	s.Do(t, "GET", "/api/v1/namespaces/platform-system/configmaps/extension-apiserver-authentication", nil).Expect(t, http.StatusOK)
}
