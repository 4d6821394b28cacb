package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"sort"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// TemplateData returns the data of a revision of tmpl, in upstream's form:
// a patch that replaces spec.template with tmpl.
func TemplateData(tmpl *corev1.PodTemplateSpec) ([]byte, error) {
	raw, err := json.Marshal(tmpl)
	if err != nil {
		return nil, fmt.Errorf("history: encode template: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("history: decode template: %w", err)
	}
	m["$patch"] = "replace"
	data, err := json.Marshal(map[string]any{"spec": map[string]any{"template": m}})
	if err != nil {
		return nil, fmt.Errorf("history: encode revision data: %w", err)
	}
	return data, nil
}

// Template returns the pod template a revision made by TemplateData holds.
func Template(rev *appsv1.ControllerRevision) (*corev1.PodTemplateSpec, error) {
	var patch struct {
		Spec struct {
			Template corev1.PodTemplateSpec `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(rev.Data.Raw, &patch); err != nil {
		return nil, fmt.Errorf("history: decode revision %s: %w", rev.Name, err)
	}
	return &patch.Spec.Template, nil
}

// New returns, unsaved, parent's revision number revision holding data,
// labeled with labels and the hash label, owned by owner (a controller
// reference to parent), named Name(parent, Hash(data, collisionCount)).
func New(parent *meta.ObjectMeta, owner meta.OwnerReference, labels map[string]string, data []byte, revision int64, collisionCount *int32) *appsv1.ControllerRevision {
	hash := Hash(data, collisionCount)
	l := maps.Clone(labels)
	if l == nil {
		l = map[string]string{}
	}
	l[HashLabel] = hash
	return &appsv1.ControllerRevision{
		ObjectMeta: meta.ObjectMeta{
			Name:            Name(parent.Name, hash),
			Namespace:       parent.Namespace,
			Labels:          l,
			OwnerReferences: []meta.OwnerReference{owner},
		},
		Data:     appsv1.RawExtension{Raw: bytes.Clone(data)},
		Revision: revision,
	}
}

// Equal reports whether a and b hold the same data, compared as JSON
// values so that key order and spacing do not matter.
func Equal(a, b *appsv1.ControllerRevision) bool {
	if bytes.Equal(a.Data.Raw, b.Data.Raw) {
		return true
	}
	var va, vb any
	if json.Unmarshal(a.Data.Raw, &va) != nil || json.Unmarshal(b.Data.Raw, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// FindEqual returns the revisions of revs equal to needle, in revs' order.
func FindEqual(revs []*appsv1.ControllerRevision, needle *appsv1.ControllerRevision) []*appsv1.ControllerRevision {
	var out []*appsv1.ControllerRevision
	for _, r := range revs {
		if Equal(r, needle) {
			out = append(out, r)
		}
	}
	return out
}

// Sort orders revs by revision number, then creation time, then name.
func Sort(revs []*appsv1.ControllerRevision) {
	sort.SliceStable(revs, func(i, j int) bool {
		a, b := revs[i], revs[j]
		if a.Revision != b.Revision {
			return a.Revision < b.Revision
		}
		if !a.CreationTimestamp.Time.Equal(b.CreationTimestamp.Time) {
			return a.CreationTimestamp.Time.Before(b.CreationTimestamp.Time)
		}
		return a.Name < b.Name
	})
}

// Next returns the revision number after the highest of revs (1 for none).
func Next(revs []*appsv1.ControllerRevision) int64 {
	var max int64
	for _, r := range revs {
		if r.Revision > max {
			max = r.Revision
		}
	}
	return max + 1
}

// Owned returns the revisions of revs whose controller is the object with
// uid.
func Owned(revs []*appsv1.ControllerRevision, uid meta.UID) []*appsv1.ControllerRevision {
	var out []*appsv1.ControllerRevision
	for _, r := range revs {
		if podcontrol.IsControlledBy(&r.ObjectMeta, uid) {
			out = append(out, r)
		}
	}
	return out
}

// ToDelete returns the revisions to delete to keep at most limit of those
// not live (a negative limit counts as 0): the oldest by Sort order first.
// live names revisions still in use (current, update, or worn by a pod);
// they are never chosen.
func ToDelete(revs []*appsv1.ControllerRevision, live map[string]bool, limit int32) []*appsv1.ControllerRevision {
	var old []*appsv1.ControllerRevision
	for _, r := range revs {
		if !live[r.Name] {
			old = append(old, r)
		}
	}
	Sort(old)
	if limit < 0 {
		limit = 0
	}
	n := len(old) - int(limit)
	if n <= 0 {
		return nil
	}
	return old[:n]
}
