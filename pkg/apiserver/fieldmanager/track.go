package fieldmanager

import (
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// track records in m that manager made the changes all (the comparison
// of the live object, liveTV, with the new one) through subresource:
// what merge.Updater.Update does for an update, with the
// same set algebra, except that the managers' sets decoded through the
// field manager's cache are brought in line with the schema once, not
// on every write (that walk of every set was a fifth of an update's
// cost), and that the comparison is made once for every API version,
// since the kind's versions share their fields. The slow path keeps
// merge.Updater.Update, and tests hold the two to the same answers.
func (f *FieldManager) track(m *managed, liveTV *typed.TypedValue, all *typed.Comparison, manager, subresource string) error {
	if err := f.reconcile(m, liveTV); err != nil {
		return err
	}
	// Managers of the written version lose what the write changed of
	// what the subresource owns; those of other versions, as the
	// updater has no filter for them, what it changed at all.
	own := all
	if x := f.exclude(subresource); x != nil {
		filter := fieldpath.NewExcludeSetFilter(x)
		own = &typed.Comparison{Removed: filter.Filter(all.Removed), Modified: filter.Filter(all.Modified), Added: filter.Filter(all.Added)}
	}
	ownChanged, allChanged := own.Modified.Union(own.Added), (*fieldpath.Set)(nil)
	for id, vs := range m.fields {
		if id == manager {
			continue
		}
		cmp, changed := own, ownChanged
		if vs.APIVersion() != f.version {
			if allChanged == nil {
				allChanged = all.Modified.Union(all.Added)
			}
			cmp, changed = all, allChanged
		}
		set := vs.Set()
		if taken := set.Intersection(changed); !taken.Empty() {
			set = set.Difference(taken)
			vs = fieldpath.NewVersionedSet(set, vs.APIVersion(), vs.Applied())
		}
		if !cmp.Removed.Empty() {
			set = set.Difference(cmp.Removed)
			vs = fieldpath.NewVersionedSet(set, vs.APIVersion(), vs.Applied())
		}
		if set.Empty() {
			delete(m.fields, id)
			continue
		}
		m.fields[id] = vs
	}
	set := ownChanged
	if prev, ok := m.fields[manager]; ok {
		set = prev.Set().Difference(own.Removed).Union(ownChanged)
		if x := f.exclude(subresource); x != nil {
			set = fieldpath.NewExcludeSetFilter(x).Filter(set)
		}
	}
	if set.Empty() {
		delete(m.fields, manager)
		return nil
	}
	m.fields[manager] = fieldpath.NewVersionedSet(set, f.version, false)
	return nil
}

// reconcile brings the managers' sets in line with the kind's schema, as
// the updater does first, through the cache where a set came from it.
func (f *FieldManager) reconcile(m *managed, liveTV *typed.TypedValue) error {
	for id, vs := range m.fields {
		var set *fieldpath.Set
		var err error
		if d, ok := m.decoded[id]; ok && d.vs == vs && d.cached != nil {
			set, err = d.cached.reconciledWith(liveTV)
		} else {
			set, err = typed.ReconcileFieldSetWithSchema(vs.Set(), liveTV)
		}
		if err != nil {
			return err
		}
		if set != nil {
			m.fields[id] = fieldpath.NewVersionedSet(set, vs.APIVersion(), vs.Applied())
		}
	}
	return nil
}
