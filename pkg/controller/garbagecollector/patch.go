package garbagecollector

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"
)

// strategicPatch is the strategic merge patch making mc on the object uid
// (the uid makes it fail on a replaced object).
func strategicPatch(uid meta.UID, mc metaChange) []byte {
	md := map[string]any{"uid": uid}
	var refs []map[string]any
	for _, o := range mc.removeOwners {
		refs = append(refs, map[string]any{"$patch": "delete", "uid": o})
	}
	for _, o := range mc.unblock {
		refs = append(refs, map[string]any{"uid": o, "blockOwnerDeletion": false})
	}
	if len(refs) > 0 {
		md["ownerReferences"] = refs
	}
	if mc.finalizer != "" {
		md["$deleteFromPrimitiveList/finalizers"] = []string{mc.finalizer}
	}
	data, _ := json.Marshal(map[string]any{"metadata": md})
	return data
}

// editAttempts bounds the read-and-patch rounds of a merge edit that keeps
// meeting concurrent writes.
const editAttempts = 5

// mergeEdit makes mc on the object id with a JSON merge patch of the whole
// ownerReferences and finalizers lists, read just before and sent with the
// read's uid and resourceVersion, so a concurrent write makes it fail (and
// retry) rather than be lost. Nothing is sent when nothing would change.
func mergeEdit(ctx context.Context, m *client.MetadataResource, id ref, mc metaChange) error {
	for attempt := 1; ; attempt++ {
		cur, err := m.Get(ctx, id.Name, meta.GetOptions{})
		if err != nil {
			return err
		}
		if cur.UID != id.UID {
			return apierrors.NewNotFound(meta.GroupResource{Group: id.group(), Resource: id.Kind}, id.Name)
		}
		data, changed := mergePatch(&cur.ObjectMeta, mc)
		if !changed {
			return nil
		}
		_, err = m.Patch(ctx, id.Name, rest.MergePatchType, data, meta.WriteOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
		if attempt == editAttempts {
			return fmt.Errorf("%s %s/%s kept changing during %d attempts to edit it: %v", id.Kind, id.Namespace, id.Name, attempt, err)
		}
	}
}

// mergePatch returns the merge patch making mc on m, and whether it
// changes anything.
func mergePatch(m *meta.ObjectMeta, mc metaChange) ([]byte, bool) {
	md := map[string]any{"uid": m.UID, "resourceVersion": m.ResourceVersion}
	changed := false
	if len(mc.removeOwners)+len(mc.unblock) > 0 {
		refs := slices.DeleteFunc(slices.Clone(m.OwnerReferences), func(o meta.OwnerReference) bool {
			return slices.Contains(mc.removeOwners, o.UID)
		})
		changed = len(refs) != len(m.OwnerReferences)
		for i := range refs {
			if slices.Contains(mc.unblock, refs[i].UID) && isTrue(refs[i].BlockOwnerDeletion) {
				f := false
				refs[i].BlockOwnerDeletion, changed = &f, true
			}
		}
		md["ownerReferences"] = refs
	}
	if mc.finalizer != "" && slices.Contains(m.Finalizers, mc.finalizer) {
		md["finalizers"] = slices.DeleteFunc(slices.Clone(m.Finalizers), func(f string) bool { return f == mc.finalizer })
		changed = true
	}
	data, _ := json.Marshal(map[string]any{"metadata": md})
	return data, changed
}
