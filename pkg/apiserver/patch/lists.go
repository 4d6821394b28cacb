package patch

// mergeList merges the patch list p into orig. hasOrig tells whether the
// original document had a list here at all: when it did not, the patch list
// is taken as it is (only cleaned of directives), so a missing merge key is
// tolerated just as upstream tolerates it.
func mergeList(orig []any, hasOrig bool, p []any, f *field, path string) ([]any, error) {
	if !f.merges() {
		return replaceList(p, f.elem(), path)
	}
	maps, err := listShape(orig, p, path)
	if err != nil {
		return nil, err
	}
	if !maps {
		return mergePrimitiveList(orig, p), nil
	}
	if f.key() == "" {
		return nil, pathErrorf(path, "list has patch strategy merge but no merge key")
	}
	return mergeMapList(orig, hasOrig, p, f, path)
}

// replaceList returns the patch list as the new value, with directives
// stripped from its elements. Elements that are only list directives
// ({"$patch": ...}) or that ask to be deleted have nothing to contribute.
func replaceList(p []any, ef *field, path string) ([]any, error) {
	out := make([]any, 0, len(p))
	for i, v := range p {
		var err error
		switch e := v.(type) {
		case map[string]any:
			if d, ok := e[dirPatch]; ok && (d == patchDelete || len(e) == 1) {
				if d != patchDelete && d != patchReplace && d != patchMerge {
					return nil, pathErrorf(indexPath(path, i), "unknown %s value %v", dirPatch, d)
				}
				continue
			}
			v, err = mergeMap(nil, e, ef.schema(), indexPath(path, i))
		case []any:
			v, err = mergeList(nil, false, e, ef, indexPath(path, i))
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// listShape checks that the elements of both lists are all objects or all
// scalars, and reports which. Empty lists count as scalars.
func listShape(orig, p []any, path string) (maps bool, err error) {
	var nMaps, nScalars int
	for _, list := range [][]any{orig, p} {
		for _, v := range list {
			switch v.(type) {
			case map[string]any:
				nMaps++
			case []any:
				return false, pathErrorf(path, "lists of lists cannot be merged")
			default:
				nScalars++
			}
		}
	}
	if nMaps > 0 && nScalars > 0 {
		return false, pathErrorf(path, "list mixes objects and scalars")
	}
	return nMaps > 0, nil
}

// mergePrimitiveList returns the union of both lists without duplicates,
// ordered as upstream does: patch values in patch order, interleaved with
// the values only the original has.
func mergePrimitiveList(orig, p []any) []any {
	merged := dedupe(append(append(make([]any, 0, len(orig)+len(p)), orig...), p...))
	if len(orig) == 0 {
		return merged
	}
	return reorder(merged, p, orig, scalarID)
}

// listEdits is a merge-keyed patch list split into its parts.
type listEdits struct {
	items   []map[string]any // elements to merge in, in patch order
	deletes []any            // merge key values of elements to remove
	replace bool             // a {"$patch": "replace"} element was present
}

// splitListEdits separates the directive elements of a merge-keyed list.
// As upstream does, an element carrying "$patch: replace" only marks the
// whole list for replacement and contributes nothing itself.
func splitListEdits(p []any, mergeKey, path string) (listEdits, error) {
	var e listEdits
	for i, v := range p {
		m := v.(map[string]any) // listShape vouched for this
		d, ok := m[dirPatch]
		if !ok {
			e.items = append(e.items, m)
			continue
		}
		switch d {
		case patchDelete:
			key, ok := m[mergeKey]
			if !ok {
				return e, pathErrorf(indexPath(path, i), "element to delete has no merge key %q", mergeKey)
			}
			e.deletes = append(e.deletes, key)
		case patchReplace:
			e.replace = true
		case patchMerge:
			if len(m) > 1 {
				e.items = append(e.items, m)
			}
		default:
			return e, pathErrorf(indexPath(path, i), "unknown %s value %v", dirPatch, d)
		}
	}
	return e, nil
}

// mergeMapList merges a list of objects keyed by the field's merge key:
// deletions first, then each patch element is merged into the original
// element with the same key or added, then the order is settled.
func mergeMapList(orig []any, strict bool, p []any, f *field, path string) ([]any, error) {
	key, ef := f.key(), f.elem()
	edits, err := splitListEdits(p, key, path)
	if err != nil {
		return nil, err
	}
	if edits.replace {
		orig, strict = nil, false
	}
	merged := removeByKey(orig, key, edits.deletes)
	live := merged
	index := indexByIdentity(merged, keyID(key))
	for i, item := range edits.items {
		k, hasKey := item[key]
		if !hasKey && strict {
			return nil, pathErrorf(indexPath(path, i), "element has no merge key %q", key)
		}
		pos, found := -1, false
		if id, ok := scalarID(k); hasKey && ok && !edits.replace {
			pos, found = index[id]
			if !found {
				index[id] = len(merged)
			}
		}
		var base map[string]any
		if found {
			base = merged[pos].(map[string]any)
		}
		m, err := mergeMap(base, item, ef.schema(), indexPath(path, i))
		if err != nil {
			return nil, err
		}
		if found {
			merged[pos] = m
		} else {
			merged = append(merged, m)
		}
	}
	if len(live) == 0 {
		return merged, nil
	}
	return reorder(merged, p, live, keyID(key)), nil
}
