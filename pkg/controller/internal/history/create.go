package history

import (
	"context"
	"fmt"

	appsv1 "platform.io/client/api/apps/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// Client is the part of a namespace's ControllerRevision client that
// revisions are written through.
type Client interface {
	Create(ctx context.Context, rev *appsv1.ControllerRevision, opts meta.WriteOptions) (*appsv1.ControllerRevision, error)
	Get(ctx context.Context, name string, opts meta.GetOptions) (*appsv1.ControllerRevision, error)
	Update(ctx context.Context, rev *appsv1.ControllerRevision, opts meta.WriteOptions) (*appsv1.ControllerRevision, error)
	Delete(ctx context.Context, name string, opts *meta.DeleteOptions) error
}

// maxCollisions bounds the names Create tries; a hash clash is rare, so
// this many in a row means something else is wrong.
const maxCollisions = 20

// Create saves rev (built by New with *collisionCount) for its owner.
// When the name is taken by a revision of the same owner holding the same
// data, that revision is returned: a stale cache made us create it twice.
// When it is taken by anything else, *collisionCount is bumped, the name
// recomputed and the create tried again; the caller must then persist the
// new count in its status so later hashes agree.
func Create(ctx context.Context, c Client, rev *appsv1.ControllerRevision, collisionCount *int32) (*appsv1.ControllerRevision, error) {
	owner := ownerUID(rev)
	for i := 0; i < maxCollisions; i++ {
		created, err := c.Create(ctx, rev, meta.WriteOptions{})
		if err == nil {
			return created, nil
		}
		if !apierrors.IsAlreadyExists(err) {
			return nil, fmt.Errorf("history: create revision %s: %w", rev.Name, err)
		}
		existing, err := c.Get(ctx, rev.Name, meta.GetOptions{})
		if err != nil {
			return nil, fmt.Errorf("history: read clashing revision %s: %w", rev.Name, err)
		}
		if ownerUID(existing) == owner && Equal(existing, rev) {
			return existing, nil
		}
		*collisionCount++
		hash := Hash(rev.Data.Raw, collisionCount)
		parent := rev.Name[:len(rev.Name)-len(rev.Labels[HashLabel])-1]
		rev.Name = Name(parent, hash)
		rev.Labels[HashLabel] = hash
	}
	return nil, fmt.Errorf("history: revision %s: %d name collisions in a row", rev.Name, maxCollisions)
}

// Renumber makes rev the revision numbered revision (a rollback to an old
// template makes its revision the newest again) and returns the saved one.
// rev comes from a cache and is not modified.
func Renumber(ctx context.Context, c Client, rev *appsv1.ControllerRevision, revision int64) (*appsv1.ControllerRevision, error) {
	if rev.Revision == revision {
		return rev, nil
	}
	cp := *rev
	cp.Revision = revision
	out, err := c.Update(ctx, &cp, meta.WriteOptions{})
	if err != nil {
		return nil, fmt.Errorf("history: renumber revision %s to %d: %w", rev.Name, revision, err)
	}
	return out, nil
}

// ownerUID is the uid of rev's controller, or "".
func ownerUID(rev *appsv1.ControllerRevision) meta.UID {
	if ref := podcontrol.ControllerOf(&rev.ObjectMeta); ref != nil {
		return ref.UID
	}
	return ""
}
