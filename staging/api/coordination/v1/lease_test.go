package v1

import (
	"testing"
	"time"

	"platform.io/client/api/apitest"
)

func TestTags(t *testing.T) {
	apitest.CheckTags(t, Lease{}, LeaseList{})
}

const schedulerLease = `{
  "apiVersion": "coordination.platform.io/v1",
  "kind": "Lease",
  "metadata": {"name": "scheduler", "namespace": "platform-system", "resourceVersion": "4711"},
  "spec": {
    "holderIdentity": "node-a_9f1c2d",
    "leaseDurationSeconds": 15,
    "acquireTime": "2024-05-01T10:00:00.000000Z",
    "renewTime": "2024-05-01T10:05:12.345678Z",
    "leaseTransitions": 0,
    "strategy": "OldestEmulationVersion",
    "preferredHolder": "node-b_77aa01"
  }
}`

func TestLeaseRoundTrip(t *testing.T) {
	l := apitest.RoundTripJSON[Lease](t, schedulerLease)
	s := l.Spec
	if s.HolderIdentity == nil || *s.HolderIdentity != "node-a_9f1c2d" || *s.LeaseDurationSeconds != 15 {
		t.Errorf("spec = %+v", s)
	}
	want := time.Date(2024, 5, 1, 10, 5, 12, 345678000, time.UTC)
	if s.RenewTime == nil || !s.RenewTime.Equal(want) {
		t.Errorf("renewTime = %v, want %v", s.RenewTime, want)
	}
	if s.LeaseTransitions == nil || *s.LeaseTransitions != 0 {
		t.Errorf("explicit leaseTransitions 0 lost: %v", s.LeaseTransitions)
	}
	if s.Strategy == nil || *s.Strategy != OldestEmulationVersion || *s.PreferredHolder != "node-b_77aa01" {
		t.Errorf("coordination fields = %v %v", s.Strategy, s.PreferredHolder)
	}
}

func TestNodeHeartbeatLease(t *testing.T) {
	l := apitest.RoundTripJSON[Lease](t, `{"apiVersion":"coordination.platform.io/v1","kind":"Lease","metadata":{"name":"worker-1","namespace":"platform-node-lease"},"spec":{"holderIdentity":"worker-1","leaseDurationSeconds":40,"renewTime":"2024-05-01T10:05:00.000001Z"}}`)
	if l.Spec.AcquireTime != nil || l.Spec.Strategy != nil || l.Spec.PreferredHolder != nil {
		t.Errorf("unset fields decoded as set: %+v", l.Spec)
	}
}

func TestListRoundTrip(t *testing.T) {
	l := apitest.RoundTripJSON[LeaseList](t, `{"apiVersion":"coordination.platform.io/v1","kind":"LeaseList","metadata":{"resourceVersion":"5000"},"items":[`+schedulerLease+`]}`)
	if len(l.Items) != 1 || l.Items[0].Name != "scheduler" {
		t.Errorf("list = %+v", l)
	}
}

func TestRegister(t *testing.T) {
	if SchemeGroupVersion.String() != "coordination.platform.io/v1" || Resource("leases").String() != "leases.coordination.platform.io" {
		t.Errorf("group version %s", SchemeGroupVersion)
	}
}
