package podcontrol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/informer"
	"platform.io/client/rest"
)

// ErrCannotAdopt wraps the reason an owner may not adopt right now: it is
// being deleted, or the name now belongs to another object.
var ErrCannotAdopt = errors.New("podcontrol: owner cannot adopt")

// Claimer decides which objects of a namespace belong to one owner, the
// way upstream's ControllerRefManager does: an object the owner controls
// and still selects is kept; one it controls and no longer selects is
// released (its ownerReference removed); an orphan it selects is adopted
// (given the owner's controller ownerReference); objects controlled by
// others are left alone. Adoption and release are strategic-merge patches
// guarded by the object's uid.
type Claimer struct {
	// Owner is the claiming controller.
	Owner Owner
	// Selector is the owner's selector.
	Selector labels.Selector
	// Patch sends a strategic-merge patch to the object name of the owner's
	// namespace.
	Patch func(ctx context.Context, name string, data []byte) error
	// CanAdopt, when set, is called once before the first adoption; an
	// error stops every adoption of this claim. It should read the owner
	// afresh from the API server (RecheckDeletion).
	CanAdopt func(ctx context.Context) error
}

// PodPatch returns a Claimer.Patch that patches pods through w.
func PodPatch(w PodWriter, namespace string) func(ctx context.Context, name string, data []byte) error {
	return func(ctx context.Context, name string, data []byte) error {
		_, err := w.Patch(ctx, namespace, name, rest.StrategicMergePatchType, data)
		return err
	}
}

// RecheckDeletion returns a CanAdopt that reads the owner with get (which
// must bypass caches) and refuses when it is gone, has another uid, or is
// being deleted.
func RecheckDeletion(owner Owner, get func(ctx context.Context) (*meta.ObjectMeta, error)) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		fresh, err := get(ctx)
		if err != nil {
			return fmt.Errorf("%w: read %s %s/%s: %w", ErrCannotAdopt, owner.GVK.Kind, owner.Meta.Namespace, owner.Meta.Name, err)
		}
		if fresh.UID != owner.Meta.UID {
			return fmt.Errorf("%w: %s %s/%s was replaced (uid %s, want %s)", ErrCannotAdopt, owner.GVK.Kind, owner.Meta.Namespace, owner.Meta.Name, fresh.UID, owner.Meta.UID)
		}
		if fresh.DeletionTimestamp != nil {
			return fmt.Errorf("%w: %s %s/%s is being deleted", ErrCannotAdopt, owner.GVK.Kind, owner.Meta.Namespace, owner.Meta.Name)
		}
		return nil
	}
}

// Claim returns the objects of objs that belong to the owner after
// adopting and releasing as the Claimer documents; match, when set, is an
// extra condition an object must meet besides the selector. Adopted
// objects are returned as read, without the new reference (the informer
// brings it). Errors of individual patches are joined; an object that
// vanished is skipped.
func Claim[PT informer.Object](ctx context.Context, c *Claimer, objs []PT, match func(PT) bool) ([]PT, error) {
	var claimed []PT
	var errs []error
	adoptChecked := false
	var adoptErr error
	for _, obj := range objs {
		m := obj.GetObjectMeta()
		selected := c.Selector.Matches(labels.Set(m.Labels)) && (match == nil || match(obj))
		if ref := ControllerOf(m); ref != nil {
			if ref.UID != c.Owner.Meta.UID {
				continue
			}
			if selected {
				claimed = append(claimed, obj)
				continue
			}
			if c.Owner.Meta.DeletionTimestamp != nil {
				continue
			}
			if err := c.release(ctx, m); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		if !selected || c.Owner.Meta.DeletionTimestamp != nil || m.DeletionTimestamp != nil {
			continue
		}
		if !adoptChecked {
			adoptChecked = true
			if c.CanAdopt != nil {
				adoptErr = c.CanAdopt(ctx)
			}
		}
		if adoptErr != nil {
			errs = append(errs, adoptErr)
			break
		}
		if err := c.adopt(ctx, m); err != nil {
			errs = append(errs, err)
			continue
		}
		claimed = append(claimed, obj)
	}
	return claimed, errors.Join(errs...)
}

// adopt adds the owner's controller reference to the object m names.
func (c *Claimer) adopt(ctx context.Context, m *meta.ObjectMeta) error {
	data, err := AdoptPatch(c.Owner, m.UID)
	if err != nil {
		return err
	}
	if err := c.Patch(ctx, m.Name, data); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("adopt %s/%s: %w", m.Namespace, m.Name, err)
	}
	return nil
}

// release removes the owner's reference from the object m names.
func (c *Claimer) release(ctx context.Context, m *meta.ObjectMeta) error {
	data, err := ReleasePatch(c.Owner.Meta.UID, m.UID)
	if err != nil {
		return err
	}
	if err := c.Patch(ctx, m.Name, data); err != nil {
		if apierrors.IsNotFound(err) || apierrors.IsInvalid(err) {
			return nil
		}
		return fmt.Errorf("release %s/%s: %w", m.Namespace, m.Name, err)
	}
	return nil
}

type patchMeta struct {
	Metadata struct {
		OwnerReferences []any    `json:"ownerReferences"`
		UID             meta.UID `json:"uid"`
	} `json:"metadata"`
}

// AdoptPatch is the strategic-merge patch that adds owner's controller
// reference to the object with uid.
func AdoptPatch(owner Owner, uid meta.UID) ([]byte, error) {
	var p patchMeta
	p.Metadata.OwnerReferences = []any{owner.Ref()}
	p.Metadata.UID = uid
	return json.Marshal(p)
}

// ReleasePatch is the strategic-merge patch that removes the reference to
// ownerUID from the object with uid.
func ReleasePatch(ownerUID, uid meta.UID) ([]byte, error) {
	var p patchMeta
	p.Metadata.OwnerReferences = []any{map[string]any{"$patch": "delete", "uid": ownerUID}}
	p.Metadata.UID = uid
	return json.Marshal(p)
}

// ClaimPods is Claim for pods, with the selector as the only condition.
func ClaimPods(ctx context.Context, c *Claimer, pods []*corev1.Pod) ([]*corev1.Pod, error) {
	return Claim(ctx, c, pods, nil)
}

func isNotFound(err error) bool { return apierrors.IsNotFound(err) }
