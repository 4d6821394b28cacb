package fieldmanager

import (
	"sort"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"platform.io/client/api/meta"
)

// capUpdaters keeps at most maxUpdateManagers Update entries: the oldest
// are merged into one "ancient-changes" entry per apiVersion, as upstream
// caps them. Apply entries are never merged.
func (m managed) capUpdaters() error {
	type updater struct {
		id   string
		vs   fieldpath.VersionedSet
		time *meta.Time
	}
	var updaters []updater
	for id, vs := range m.fields {
		if !vs.Applied() {
			updaters = append(updaters, updater{id, vs, m.times[id]})
		}
	}
	if len(updaters) <= maxUpdateManagers {
		return nil
	}
	sort.Slice(updaters, func(i, j int) bool {
		a, b := updaters[i].time, updaters[j].time
		switch {
		case a == nil || b == nil:
			if (a == nil) != (b == nil) {
				return a == nil
			}
		case !a.Equal(b.Time):
			return a.Before(b.Time)
		}
		return updaters[i].id < updaters[j].id
	})
	count := len(updaters)
	buckets := map[string]bool{}
	for _, u := range updaters {
		if count <= maxUpdateManagers {
			break
		}
		bucket, err := m.identify(meta.ManagedFieldsEntry{Manager: ancientChanges, Operation: OperationUpdate, APIVersion: string(u.vs.APIVersion())})
		if err != nil {
			return err
		}
		if u.id == bucket {
			continue
		}
		_, existed := m.fields[bucket]
		set := u.vs.Set()
		if prev, ok := m.fields[bucket]; ok {
			set = set.Union(prev.Set())
		}
		m.fields[bucket] = fieldpath.NewVersionedSet(set, u.vs.APIVersion(), false)
		m.times[bucket] = u.time
		delete(m.fields, u.id)
		delete(m.times, u.id)
		count--
		if !existed && !buckets[bucket] {
			// A new bucket is one more entry.
			count++
		}
		buckets[bucket] = true
	}
	return nil
}
