package leaderelection

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	apierrors "platform.io/client/api/errors"
)

// multiLock keeps one record in two objects, for moving a lock from
// Endpoints or ConfigMaps to Leases: candidates using the primary alone,
// the pair, or the secondary alone exclude each other.
//
// The primary decides: Get returns its record, and Update is a
// compare-and-swap on it. The secondary is read too, so that a change of
// either object counts as a change of the record, and a holder the two
// disagree on is reported as UnknownLeader (taken only after a lease of no
// change). A missing secondary is tolerated and created on the next write.
type multiLock struct {
	primary, secondary Lock
}

func (m *multiLock) Get(ctx context.Context) (*LeaderElectionRecord, []byte, error) {
	rec, raw, err := m.primary.Get(ctx)
	if err != nil {
		return nil, nil, err
	}
	srec, sraw, err := m.secondary.Get(ctx)
	if apierrors.IsNotFound(err) {
		return rec, raw, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if srec.HolderIdentity != rec.HolderIdentity {
		r := *rec
		r.HolderIdentity = UnknownLeader
		rec = &r
	}
	return rec, bytes.Join([][]byte{raw, sraw}, []byte(",")), nil
}

// Create creates the primary, then the secondary. A secondary that already
// exists is taken over only when it names no holder (or this candidate);
// otherwise Create fails and the next Get reports UnknownLeader.
func (m *multiLock) Create(ctx context.Context, r LeaderElectionRecord) error {
	if err := m.primary.Create(ctx, r); err != nil {
		return err
	}
	err := m.secondary.Create(ctx, r)
	if !apierrors.IsAlreadyExists(err) {
		return err
	}
	srec, _, err := m.secondary.Get(ctx)
	if err != nil {
		return err
	}
	if h := srec.HolderIdentity; h != "" && h != m.Identity() {
		return fmt.Errorf("leaderelection: secondary lock %s is held by %q", m.secondary.Describe(), h)
	}
	return m.secondary.Update(ctx, r)
}

// Update writes the primary, then the secondary, both compare-and-swap on
// the versions last seen; a secondary never seen (missing at the last Get)
// or gone since is created.
func (m *multiLock) Update(ctx context.Context, r LeaderElectionRecord) error {
	if err := m.primary.Update(ctx, r); err != nil {
		return err
	}
	err := m.secondary.Update(ctx, r)
	if errors.Is(err, errNotRead) || apierrors.IsNotFound(err) {
		err = m.secondary.Create(ctx, r)
	}
	return err
}

func (m *multiLock) RecordEvent(msg string) {
	m.primary.RecordEvent(msg)
	m.secondary.RecordEvent(msg)
}

func (m *multiLock) Identity() string { return m.primary.Identity() }

func (m *multiLock) Describe() string {
	return m.primary.Describe() + ", " + m.secondary.Describe()
}
