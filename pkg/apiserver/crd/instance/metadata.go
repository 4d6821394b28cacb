package instance

import (
	"maps"
	"slices"
	"time"
	"unicode/utf8"

	"platform.io/client/api/meta"
)

// metadataTree returns the tree that decoding the JSON encoding of m
// gives, built from m's fields: strings as encoding/json writes them
// (each byte of invalid UTF-8 read back as U+FFFD), integers as int64,
// times as their RFC 3339 strings or nil, and each fieldsV1 trie decoded
// after meta checks and compacts it as encoding/json would (FieldsV1.AppendJSON).
func metadataTree(m *meta.ObjectMeta) (map[string]any, error) {
	t := make(map[string]any, 8)
	putString(t, "name", m.Name)
	putString(t, "generateName", m.GenerateName)
	putString(t, "namespace", m.Namespace)
	putString(t, "selfLink", m.SelfLink)
	putString(t, "uid", string(m.UID))
	putString(t, "resourceVersion", m.ResourceVersion)
	if m.Generation != 0 {
		t["generation"] = m.Generation
	}
	t["creationTimestamp"] = timeValue(&m.CreationTimestamp)
	if m.DeletionTimestamp != nil {
		t["deletionTimestamp"] = timeValue(m.DeletionTimestamp)
	}
	if m.DeletionGracePeriodSeconds != nil {
		t["deletionGracePeriodSeconds"] = *m.DeletionGracePeriodSeconds
	}
	if len(m.Labels) > 0 {
		t["labels"] = stringMapTree(m.Labels)
	}
	if len(m.Annotations) > 0 {
		t["annotations"] = stringMapTree(m.Annotations)
	}
	if len(m.OwnerReferences) > 0 {
		refs := make([]any, len(m.OwnerReferences))
		for i := range m.OwnerReferences {
			r := &m.OwnerReferences[i]
			rt := map[string]any{
				"apiVersion": jsonString(r.APIVersion),
				"kind":       jsonString(r.Kind),
				"name":       jsonString(r.Name),
				"uid":        jsonString(string(r.UID)),
			}
			if r.Controller != nil {
				rt["controller"] = *r.Controller
			}
			if r.BlockOwnerDeletion != nil {
				rt["blockOwnerDeletion"] = *r.BlockOwnerDeletion
			}
			refs[i] = rt
		}
		t["ownerReferences"] = refs
	}
	if len(m.Finalizers) > 0 {
		fs := make([]any, len(m.Finalizers))
		for i, f := range m.Finalizers {
			fs[i] = jsonString(f)
		}
		t["finalizers"] = fs
	}
	if len(m.ManagedFields) > 0 {
		entries := make([]any, len(m.ManagedFields))
		var buf []byte
		for i := range m.ManagedFields {
			e := &m.ManagedFields[i]
			et := make(map[string]any, 7)
			putString(et, "manager", e.Manager)
			putString(et, "operation", e.Operation)
			putString(et, "apiVersion", e.APIVersion)
			if e.Time != nil {
				et["time"] = timeValue(e.Time)
			}
			putString(et, "fieldsType", e.FieldsType)
			if e.FieldsV1 != nil {
				var err error
				if buf, err = e.FieldsV1.AppendJSON(buf[:0]); err != nil {
					return nil, err
				}
				if et["fieldsV1"], err = DecodeValue(buf); err != nil {
					return nil, err
				}
			}
			putString(et, "subresource", e.Subresource)
			entries[i] = et
		}
		t["managedFields"] = entries
	}
	return t, nil
}

// putString sets t[k] to v unless v is empty (omitempty).
func putString(t map[string]any, k, v string) {
	if v != "" {
		t[k] = jsonString(v)
	}
}

// timeValue is what t's JSON encoding (see meta.Time.MarshalJSON)
// decodes to.
func timeValue(t *meta.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// stringMapTree is what the JSON encoding of m decodes to. When keys
// read back the same (they differ only in invalid UTF-8), the one
// encoding/json writes last, in sorted order, wins.
func stringMapTree(m map[string]string) map[string]any {
	t := make(map[string]any, len(m))
	odd := false
	for k, v := range m {
		if !utf8.ValidString(k) {
			odd = true
			break
		}
		t[k] = jsonString(v)
	}
	if !odd {
		return t
	}
	clear(t)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		t[jsonString(k)] = jsonString(m[k])
	}
	return t
}

// jsonString is what s reads back as from its JSON encoding: s, with
// each byte of invalid UTF-8 replaced by U+FFFD.
func jsonString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}
