package fieldmanager

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"platform.io/client/api/meta"
)

// Operations of a managedFields entry.
const (
	OperationApply  = "Apply"
	OperationUpdate = "Update"
)

const fieldsV1 = "FieldsV1"

// managed is the decoded form of an object's managedFields: the field
// sets by manager identifier and when each manager last changed them.
type managed struct {
	fields fieldpath.ManagedFields
	times  map[string]*meta.Time
	// decoded are the entries as decoded, by identifier: encode writes
	// again one whose set is still the one decoded from its canonical
	// encoding, without encoding the set again.
	decoded map[string]decodedEntry
	// names are the entries' identities (all but fields and time) by
	// identifier, as identify made them, so that encode need not decode
	// an identifier.
	names map[string]meta.ManagedFieldsEntry
}

// decodedEntry is what encode reuses of a decoded entry.
type decodedEntry struct {
	vs        fieldpath.VersionedSet
	canonical []byte
	// cached is the set's entry in the field manager's cache (a
	// one-use one when decoded without a cache); nil for an empty set.
	cached *cachedSet
}

func newManaged() managed {
	return managed{fields: fieldpath.ManagedFields{}, times: map[string]*meta.Time{}, names: map[string]meta.ManagedFieldsEntry{}}
}

// identifier is the key of an entry: everything but its fields and time,
// and, for appliers, its apiVersion, so one applier has one entry whatever
// version it applies. It is the JSON of those parts, as encoding/json
// writes it.
func identifier(e meta.ManagedFieldsEntry) (string, error) {
	id := identity(e)
	if plainKey(id.Manager) && plainKey(id.Operation) && plainKey(id.APIVersion) && plainKey(id.Subresource) {
		// Nothing to escape: the common case, without reflection.
		var b strings.Builder
		b.WriteByte('{')
		for _, f := range [...]struct{ name, value string }{
			{"manager", id.Manager}, {"operation", id.Operation}, {"apiVersion", id.APIVersion}, {"subresource", id.Subresource},
		} {
			if f.value == "" {
				continue
			}
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + f.name + `":"`)
			b.WriteString(f.value)
			b.WriteByte('"')
		}
		b.WriteByte('}')
		return b.String(), nil
	}
	b, err := json.Marshal(id)
	if err != nil {
		return "", fmt.Errorf("fieldmanager: encode manager identifier: %w", err)
	}
	return string(b), nil
}

// identity is the part of e its identifier holds.
func identity(e meta.ManagedFieldsEntry) meta.ManagedFieldsEntry {
	id := meta.ManagedFieldsEntry{Manager: e.Manager, Operation: e.Operation, APIVersion: e.APIVersion, Subresource: e.Subresource}
	if e.Operation == OperationApply {
		id.APIVersion = ""
	}
	return id
}

// identify returns e's identifier and keeps e's identity for encode.
func (m managed) identify(e meta.ManagedFieldsEntry) (string, error) {
	id, err := identifier(e)
	if err != nil {
		return "", err
	}
	m.names[id] = identity(e)
	return id, nil
}

// parseIdentifier is the identity an identifier holds.
func parseIdentifier(id string) (meta.ManagedFieldsEntry, error) {
	var e meta.ManagedFieldsEntry
	if err := json.Unmarshal([]byte(id), &e); err != nil {
		return e, fmt.Errorf("fieldmanager: decode manager identifier %q: %w", id, err)
	}
	return e, nil
}

// decodeManaged reads managedFields entries, their sets through sets (nil
// decodes each).
func decodeManaged(entries []meta.ManagedFieldsEntry, sets *setCache) (managed, error) {
	m := newManaged()
	m.decoded = make(map[string]decodedEntry, len(entries))
	for _, e := range entries {
		if e.FieldsType != fieldsV1 && e.FieldsType != "" {
			return managed{}, fmt.Errorf("fieldmanager: managedFields of manager %q: fieldsType %q is not %q", e.Manager, e.FieldsType, fieldsV1)
		}
		switch e.Operation {
		case OperationApply, OperationUpdate:
		default:
			return managed{}, fmt.Errorf("fieldmanager: managedFields of manager %q: operation %q is not %q or %q", e.Manager, e.Operation, OperationApply, OperationUpdate)
		}
		id, err := m.identify(e)
		if err != nil {
			return managed{}, err
		}
		set := &fieldpath.Set{}
		var canonical []byte
		var cached *cachedSet
		if e.FieldsV1 != nil && len(e.FieldsV1.Raw) > 0 {
			cs, err := sets.decode(e.FieldsV1.Raw)
			if err != nil {
				return managed{}, fmt.Errorf("fieldmanager: fieldsV1 of manager %q: %w", e.Manager, err)
			}
			set, canonical, cached = cs.set, cs.canonical, cs
		}
		vs := fieldpath.NewVersionedSet(set, fieldpath.APIVersion(e.APIVersion), e.Operation == OperationApply)
		m.fields[id] = vs
		m.times[id] = e.Time
		m.decoded[id] = decodedEntry{vs: vs, canonical: canonical, cached: cached}
	}
	return m, nil
}

// encode writes m as managedFields entries, in upstream's order: appliers
// first, then by time, manager, apiVersion and subresource. Empty sets
// are dropped.
func (m managed) encode() ([]meta.ManagedFieldsEntry, error) {
	var out []meta.ManagedFieldsEntry
	for id, vs := range m.fields {
		if vs.Set().Empty() {
			continue
		}
		e, ok := m.names[id]
		if !ok {
			var err error
			if e, err = parseIdentifier(id); err != nil {
				return nil, err
			}
		}
		var raw []byte
		if d, ok := m.decoded[id]; ok && d.vs == vs && d.canonical != nil {
			// Unchanged since decoded: its canonical encoding is at hand.
			raw = d.canonical
		} else {
			var err error
			if raw, err = vs.Set().ToJSON(); err != nil {
				return nil, fmt.Errorf("fieldmanager: encode fields of %q: %w", e.Manager, err)
			}
		}
		e.APIVersion = string(vs.APIVersion())
		e.Operation = OperationUpdate
		if vs.Applied() {
			e.Operation = OperationApply
		}
		e.Time = m.times[id]
		e.FieldsType = fieldsV1
		e.FieldsV1 = &meta.FieldsV1{Raw: raw}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return entryLess(out[i], out[j]) })
	return out, nil
}

func entryLess(p, q meta.ManagedFieldsEntry) bool {
	if p.Operation != q.Operation {
		return p.Operation < q.Operation
	}
	var ps, qs int64
	if p.Time != nil {
		ps = p.Time.Unix()
	}
	if q.Time != nil {
		qs = q.Time.Unix()
	}
	if ps != qs {
		return ps < qs
	}
	if p.Manager != q.Manager {
		return p.Manager < q.Manager
	}
	if p.APIVersion != q.APIVersion {
		return p.APIVersion < q.APIVersion
	}
	return p.Subresource < q.Subresource
}

// isReset reports whether a request's managedFields ask to clear them: an
// empty list, or a list of one empty entry, as upstream reads them.
func isReset(entries []meta.ManagedFieldsEntry) bool {
	switch len(entries) {
	case 0:
		return entries != nil
	case 1:
		e := entries[0]
		return e.Manager == "" && e.Operation == "" && e.APIVersion == "" && e.Time == nil &&
			e.FieldsType == "" && e.FieldsV1 == nil && e.Subresource == ""
	}
	return false
}
