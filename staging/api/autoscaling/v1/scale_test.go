package v1

import (
	"encoding/json"
	"strings"
	"testing"

	"platform.io/client/api/apitest"
	"platform.io/client/api/meta"
)

var _ meta.Object = &Scale{}

func TestTags(t *testing.T) {
	apitest.CheckTags(t, Scale{})
}

func TestScaleRoundTrip(t *testing.T) {
	s := apitest.RoundTripJSON[Scale](t, `{
		"kind": "Scale",
		"apiVersion": "autoscaling/v1",
		"metadata": {"name": "web", "namespace": "default", "resourceVersion": "812", "creationTimestamp": "2024-05-01T10:00:00Z"},
		"spec": {"replicas": 5},
		"status": {"replicas": 3, "selector": "app=web,pod-template-hash in (7d4b9c)"}
	}`)
	if s.Spec.Replicas != 5 || s.Status.Replicas != 3 || s.Status.Selector != "app=web,pod-template-hash in (7d4b9c)" {
		t.Errorf("decoded %+v", s)
	}
}

func TestScaleZeroStatusReplicasIsWritten(t *testing.T) {
	out, err := json.Marshal(Scale{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"status":{"replicas":0}`) || strings.Contains(string(out), `"spec":{"replicas"`) {
		t.Errorf("encoded %s", out)
	}
}

func TestGroupVersion(t *testing.T) {
	if got := SchemeGroupVersion.String(); got != "autoscaling/v1" {
		t.Errorf("SchemeGroupVersion = %q", got)
	}
}

func TestHPATags(t *testing.T) {
	apitest.CheckTags(t, HorizontalPodAutoscaler{}, HorizontalPodAutoscalerList{})
}
