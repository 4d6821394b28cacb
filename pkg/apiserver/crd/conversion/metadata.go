package conversion

import (
	"encoding/json"
	"errors"
	"maps"
	"strings"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// restoreMeta gives converted the metadata of original, keeping the
// labels and annotations converted carries (a webhook may change those
// and nothing else of metadata); changed ones must be valid.
func restoreMeta(original, converted *meta.ObjectMeta) error {
	labels, annotations := converted.Labels, converted.Annotations
	b, err := json.Marshal(original)
	if err != nil {
		return err
	}
	m := meta.ObjectMeta{}
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	var errs field.ErrorList
	if !maps.Equal(labels, original.Labels) {
		errs = append(errs, validation.Labels(labels, field.NewPath("metadata", "labels"))...)
	}
	if !maps.Equal(annotations, original.Annotations) {
		errs = append(errs, validation.Annotations(annotations, field.NewPath("metadata", "annotations"))...)
	}
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		return errors.New("[" + strings.Join(msgs, ", ") + "]")
	}
	m.Labels, m.Annotations = labels, annotations
	*converted = m
	return nil
}
