package fieldmanager

import (
	"encoding/json"

	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"platform.io/client/api/meta"
)

// lastAppliedAnnotation holds client-side apply's last applied configuration.
const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// kubectlManager is kubectl's field manager for apply --server-side; only
// it migrates client-side apply's fields and keeps the annotation in step.
const kubectlManager = "kubectl"

// migratable reports whether every conflict is on a field the live
// object's last-applied configuration sets to the value it still has: a
// field client-side apply set, which kubectl's server-side apply takes
// over, as upstream's migration does.
func (f *FieldManager) migratable(live meta.Object, liveTV *typed.TypedValue, conflicts merge.Conflicts) bool {
	raw := live.GetObjectMeta().Annotations[lastAppliedAnnotation]
	if raw == "" {
		return false
	}
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return false
	}
	lastTV, err := f.c.Type.FromUnstructured(numbers(v))
	if err != nil {
		return false
	}
	set, err := lastTV.ToFieldSet()
	if err != nil {
		return false
	}
	cmp, err := lastTV.Compare(liveTV)
	if err != nil {
		return false
	}
	allowed := set.Difference(cmp.Modified).Difference(cmp.Removed)
	return conflicts.ToSet().Difference(allowed).Empty()
}

// syncLastApplied rewrites the last-applied annotation, where the object
// has one, to the configuration kubectl applied server-side, so a later
// client-side apply computes its patch from it.
func syncLastApplied(obj meta.Object, config map[string]any) {
	m := obj.GetObjectMeta()
	if _, ok := m.Annotations[lastAppliedAnnotation]; !ok {
		return
	}
	if md, ok := config["metadata"].(map[string]any); ok {
		if ann, ok := md["annotations"].(map[string]any); ok {
			delete(ann, lastAppliedAnnotation)
			if len(ann) == 0 {
				delete(md, "annotations")
			}
		}
	}
	b, err := json.Marshal(config)
	if err != nil {
		return
	}
	m.Annotations[lastAppliedAnnotation] = string(b)
}
