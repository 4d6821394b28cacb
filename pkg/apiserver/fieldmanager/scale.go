package fieldmanager

import (
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// scaleVersion is the group/version of the Scale the scale subresource serves.
const scaleVersion = "autoscaling/v1"

// replicasPath is spec.replicas, in the Scale and in each kind that has a
// scale subresource (deployments, replicasets, statefulsets).
var replicasPath = fieldpath.MakePathOrDie("spec", "replicas")

// ServesScaleApply reports whether apply on the kind's scale subresource
// is served.
func (f *FieldManager) ServesScaleApply() bool { return f.scale != nil }

// ApplyScale merges config, an applied autoscaling/v1 Scale in JSON, into
// scale, the current Scale of parent, as manager. Ownership is the
// parent's: whoever owns the parent's spec.replicas owns the Scale's, so
// an apply conflicts with them, and the applier's entry (subresource
// "scale") is kept on the parent, owning the parent's spec.replicas, as
// upstream maps them. It sets parent's managedFields and returns the
// merged Scale, whose spec.replicas the caller writes to parent.
func (f *FieldManager) ApplyScale(parent, scale meta.Object, config []byte, manager string, force bool) (meta.Object, error) {
	if f.scale == nil {
		return nil, apierrors.NewUnsupportedMediaType("server-side apply to the scale subresource of " + f.c.Kind + " is not served")
	}
	pm, err := decodeManaged(parent.GetObjectMeta().ManagedFields, f.sets)
	if err != nil {
		pm = newManaged()
	}
	sm := toScale(pm)
	out, _, err := f.scale.apply(scale, &sm, false, config, manager, "scale", force)
	if err != nil {
		return nil, err
	}
	pm = toParent(pm, sm, f.version)
	if err := pm.capUpdaters(); err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	entries, err := pm.encode()
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	parent.GetObjectMeta().ManagedFields = entries
	return out, nil
}

// toScale returns the ownership of a Scale from its parent's: each
// manager that owns the parent's spec.replicas owns the Scale's, under the
// same identifier and time; the others own nothing in it.
func toScale(parent managed) managed {
	out := newManaged()
	for id, vs := range parent.fields {
		if !vs.Set().Has(replicasPath) {
			continue
		}
		out.fields[id] = fieldpath.NewVersionedSet(fieldpath.NewSet(replicasPath), scaleVersion, vs.Applied())
		out.times[id] = parent.times[id]
	}
	return out
}

// toParent folds the ownership of a Scale after a write back into its
// parent's: a manager that no longer owns the Scale's spec.replicas loses
// the parent's (and its entry, if that was all it owned); one that owns it
// keeps its entry, with the Scale's time; a new owner gets an entry of
// version, the parent's, owning spec.replicas.
func toParent(parent, scale managed, version fieldpath.APIVersion) managed {
	out := newManaged()
	owners := map[string]bool{}
	for id, vs := range scale.fields {
		if vs.Set().Has(replicasPath) {
			owners[id] = true
		}
	}
	for id, vs := range parent.fields {
		switch {
		case !vs.Set().Has(replicasPath):
			out.fields[id], out.times[id] = vs, parent.times[id]
		case owners[id]:
			out.fields[id], out.times[id] = vs, scale.times[id]
			delete(owners, id)
		default:
			if rest := vs.Set().Difference(fieldpath.NewSet(replicasPath)); !rest.Empty() {
				out.fields[id] = fieldpath.NewVersionedSet(rest, vs.APIVersion(), vs.Applied())
				out.times[id] = parent.times[id]
			}
		}
	}
	for id := range owners {
		out.fields[id] = fieldpath.NewVersionedSet(fieldpath.NewSet(replicasPath), version, scale.fields[id].Applied())
		out.times[id] = scale.times[id]
	}
	return out
}
