package leaderelection

import (
	"encoding/json"

	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func newEndpointsLock(b lockBase) *objectLock[corev1.Endpoints, *corev1.Endpoints] {
	return &objectLock[corev1.Endpoints, *corev1.Endpoints]{lockBase: b, codec: kindCodec[corev1.Endpoints]{
		res:      Resource{Version: "v1", Resource: "endpoints"},
		typeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "Endpoints"},
		read:     func(o *corev1.Endpoints) (*LeaderElectionRecord, []byte) { return readAnnotation(&o.ObjectMeta) },
		write:    func(o *corev1.Endpoints, r LeaderElectionRecord) error { return writeAnnotation(&o.ObjectMeta, r) },
	}}
}

func newConfigMapLock(b lockBase) *objectLock[corev1.ConfigMap, *corev1.ConfigMap] {
	return &objectLock[corev1.ConfigMap, *corev1.ConfigMap]{lockBase: b, codec: kindCodec[corev1.ConfigMap]{
		res:      Resource{Version: "v1", Resource: "configmaps"},
		typeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		read:     func(o *corev1.ConfigMap) (*LeaderElectionRecord, []byte) { return readAnnotation(&o.ObjectMeta) },
		write:    func(o *corev1.ConfigMap, r LeaderElectionRecord) error { return writeAnnotation(&o.ObjectMeta, r) },
	}}
}

func newLeaseLock(b lockBase) *objectLock[coordinationv1.Lease, *coordinationv1.Lease] {
	gv := coordinationv1.SchemeGroupVersion
	return &objectLock[coordinationv1.Lease, *coordinationv1.Lease]{lockBase: b, codec: kindCodec[coordinationv1.Lease]{
		res:      Resource{Group: gv.Group, Version: gv.Version, Resource: "leases"},
		typeMeta: meta.TypeMeta{APIVersion: gv.String(), Kind: "Lease"},
		read:     readLease,
		write: func(o *coordinationv1.Lease, r LeaderElectionRecord) error {
			writeLease(&o.Spec, r)
			return nil
		},
	}}
}

// readLease maps the Lease spec onto a record; the raw bytes are the
// record's JSON, so they change exactly when a field of the record does.
func readLease(o *coordinationv1.Lease) (*LeaderElectionRecord, []byte) {
	s := o.Spec
	r := &LeaderElectionRecord{}
	if s.HolderIdentity != nil {
		r.HolderIdentity = *s.HolderIdentity
	}
	if s.LeaseDurationSeconds != nil {
		r.LeaseDurationSeconds = int(*s.LeaseDurationSeconds)
	}
	if s.AcquireTime != nil {
		r.AcquireTime = *s.AcquireTime
	}
	if s.RenewTime != nil {
		r.RenewTime = *s.RenewTime
	}
	if s.LeaseTransitions != nil {
		r.LeaderTransitions = int(*s.LeaseTransitions)
	}
	raw, err := json.Marshal(r)
	if err != nil {
		// A record of strings, numbers and times always encodes; keep the
		// spec's identity visible all the same.
		raw = []byte(r.HolderIdentity)
	}
	return r, raw
}

// writeLease sets the spec fields the record owns, with fresh pointers;
// Strategy and PreferredHolder are left as they were.
func writeLease(s *coordinationv1.LeaseSpec, r LeaderElectionRecord) {
	holder := r.HolderIdentity
	duration := int32(r.LeaseDurationSeconds)
	transitions := int32(r.LeaderTransitions)
	s.HolderIdentity = &holder
	s.LeaseDurationSeconds = &duration
	s.LeaseTransitions = &transitions
	s.AcquireTime = microTime(r.AcquireTime)
	s.RenewTime = microTime(r.RenewTime)
}

func microTime(t meta.MicroTime) *meta.MicroTime {
	if t.IsZero() {
		return nil
	}
	return &t
}
