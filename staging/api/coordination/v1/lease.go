package v1

import "platform.io/client/api/meta"

// Lease records who holds a named lock and until when, so that candidates
// can tell a live holder from a stale one.
type Lease struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is the current holder and timing of the lease.
	Spec LeaseSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}

// LeaseList is a page of Leases.
type LeaseList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []Lease `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// LeaseSpec holds the holder's identity and the times that decide when the lease lapses.
type LeaseSpec struct {
	// HolderIdentity names the current holder; nil when nobody holds it.
	HolderIdentity *string `json:"holderIdentity,omitempty" protobuf:"bytes,1,opt,name=holderIdentity"`
	// LeaseDurationSeconds is how long after RenewTime others must wait before taking over.
	LeaseDurationSeconds *int32 `json:"leaseDurationSeconds,omitempty" protobuf:"varint,2,opt,name=leaseDurationSeconds"`
	// AcquireTime is when the current holder took the lease.
	AcquireTime *meta.MicroTime `json:"acquireTime,omitempty" protobuf:"bytes,3,opt,name=acquireTime"`
	// RenewTime is when the current holder last refreshed the lease.
	RenewTime *meta.MicroTime `json:"renewTime,omitempty" protobuf:"bytes,4,opt,name=renewTime"`
	// LeaseTransitions counts how many times the lease changed hands.
	LeaseTransitions *int32 `json:"leaseTransitions,omitempty" protobuf:"varint,5,opt,name=leaseTransitions"`
	// Strategy, when set, means a coordinator picks the holder using this rule.
	Strategy *CoordinatedLeaseStrategy `json:"strategy,omitempty" protobuf:"bytes,6,opt,name=strategy"`
	// PreferredHolder asks the current holder to step down in favour of this candidate.
	PreferredHolder *string `json:"preferredHolder,omitempty" protobuf:"bytes,7,opt,name=preferredHolder"`
}

// CoordinatedLeaseStrategy is the rule a coordinator uses to choose among lease candidates.
type CoordinatedLeaseStrategy string

// The coordinated lease strategies.
const (
	// OldestEmulationVersion picks the candidate with the lowest emulation
	// version, then the lowest binary version, then the oldest creation time.
	OldestEmulationVersion CoordinatedLeaseStrategy = "OldestEmulationVersion"
)
