package crd

import (
	"net/http"
	"testing"

	"platform.io/platform/test/integration/framework"
)

func TestEstablishAndCRUD(t *testing.T) {
	s := framework.Start(t)
	took := install(t, s, definition("stable.example.com", "crontabs", "CronTab", "Namespaced", "ct"))
	t.Logf("established and discovered in %v", took)
	base := "/apis/stable.example.com/v1/namespaces/default/crontabs"
	obj := map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "a", "labels": map[string]any{"tier": "x"}},
		"spec":     map[string]any{"cronSpec": "* * * * */5", "replicas": 3}}
	created := s.Do(t, "POST", base, obj).Expect(t, http.StatusCreated).Map(t)
	if created["spec"].(map[string]any)["replicas"] != float64(3) {
		t.Fatalf("created %v", created)
	}
	got := s.Do(t, "GET", base+"/a", nil).Expect(t, http.StatusOK).Map(t)
	if got["kind"] != "CronTab" || got["metadata"].(map[string]any)["uid"] == "" {
		t.Fatalf("got %v", got)
	}
	list := s.Do(t, "GET", base, nil).Expect(t, http.StatusOK).Map(t)
	if list["kind"] != "CronTabList" || len(list["items"].([]any)) != 1 {
		t.Fatalf("list %v", list)
	}
}
