package patch

import "sort"

// identity maps a list element to a comparable value that names it: the
// element itself for scalars, its merge key value for objects. ok is false
// when the element has no usable name.
type identity func(v any) (id any, ok bool)

// scalarID names scalar elements by their value. JSON scalars decode to
// string, json.Number, bool or nil, all of which are comparable.
func scalarID(v any) (any, bool) {
	switch v.(type) {
	case map[string]any, []any:
		return nil, false
	}
	return v, true
}

// keyID names object elements by the value of their merge key.
func keyID(mergeKey string) identity {
	return func(v any) (any, bool) {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		k, ok := m[mergeKey]
		if !ok {
			return nil, false
		}
		return scalarID(k)
	}
}

// indexByIdentity maps each name to the position of its first occurrence.
func indexByIdentity(list []any, id identity) map[any]int {
	idx := make(map[any]int, len(list))
	for i, v := range list {
		if k, ok := id(v); ok {
			if _, dup := idx[k]; !dup {
				idx[k] = i
			}
		}
	}
	return idx
}

// reorder implements upstream's ordering of a merged list. Elements named in
// order ("patch items") are sorted by their position there; the remaining
// ("server-only") elements keep their relative order. The two runs are then
// interleaved: a server-only element goes before the next patch item only
// when both are in the live list and it came first there.
func reorder(merged, order, live []any, id identity) []any {
	orderIdx := indexByIdentity(order, id)
	var named, rest []any
	var namedPos []int
	for _, v := range merged {
		if k, ok := id(v); ok {
			if pos, in := orderIdx[k]; in {
				named = append(named, v)
				namedPos = append(namedPos, pos)
				continue
			}
		}
		rest = append(rest, v)
	}
	sort.Stable(byPosition{named, namedPos})
	return interleave(rest, named, indexByIdentity(live, id), id)
}

// byPosition sorts items by the parallel slice of positions.
type byPosition struct {
	items []any
	pos   []int
}

func (b byPosition) Len() int           { return len(b.items) }
func (b byPosition) Less(i, j int) bool { return b.pos[i] < b.pos[j] }
func (b byPosition) Swap(i, j int) {
	b.items[i], b.items[j] = b.items[j], b.items[i]
	b.pos[i], b.pos[j] = b.pos[j], b.pos[i]
}

// interleave merges two ordered runs, keeping each run's own order and
// using positions in the live list to decide between them.
func interleave(serverOnly, patchItems []any, liveIdx map[any]int, id identity) []any {
	livePos := func(v any) (int, bool) {
		k, ok := id(v)
		if !ok {
			return 0, false
		}
		p, ok := liveIdx[k]
		return p, ok
	}
	out := make([]any, 0, len(serverOnly)+len(patchItems))
	i, j := 0, 0
	for i < len(serverOnly) || j < len(patchItems) {
		takeServer := j == len(patchItems)
		if !takeServer && i < len(serverOnly) {
			sp, sok := livePos(serverOnly[i])
			pp, pok := livePos(patchItems[j])
			takeServer = sok && pok && sp < pp
		}
		if takeServer {
			out = append(out, serverOnly[i])
			i++
		} else {
			out = append(out, patchItems[j])
			j++
		}
	}
	return out
}

// dedupe drops repeated scalars, keeping first occurrences.
func dedupe(list []any) []any {
	seen := make(map[any]bool, len(list))
	out := list[:0]
	for _, v := range list {
		k, ok := scalarID(v)
		if ok && seen[k] {
			continue
		}
		if ok {
			seen[k] = true
		}
		out = append(out, v)
	}
	return out
}

// removeValues returns list without any element equal to one of values.
func removeValues(list, values []any) []any {
	drop := make(map[any]bool, len(values))
	for _, v := range values {
		if k, ok := scalarID(v); ok {
			drop[k] = true
		}
	}
	out := make([]any, 0, len(list))
	for _, v := range list {
		if k, ok := scalarID(v); ok && drop[k] {
			continue
		}
		out = append(out, v)
	}
	return out
}

// removeByKey returns a copy of list without the objects whose merge key
// value is one of keys.
func removeByKey(list []any, mergeKey string, keys []any) []any {
	out := make([]any, 0, len(list))
	id := keyID(mergeKey)
	drop := make(map[any]bool, len(keys))
	for _, k := range keys {
		if k, ok := scalarID(k); ok {
			drop[k] = true
		}
	}
	for _, v := range list {
		if k, ok := id(v); ok && drop[k] {
			continue
		}
		out = append(out, v)
	}
	return out
}

// orderIdentity picks how elements are named for a $setElementOrder list
// and checks that every entry of the order list can be named.
func orderIdentity(f *field, order []any, path string) (identity, error) {
	id := identity(scalarID)
	what := "scalars"
	if key := f.key(); key != "" {
		id, what = keyID(key), "objects with merge key "+key
	}
	for _, v := range order {
		if _, ok := id(v); !ok {
			return nil, pathErrorf(path, "%s entries must be %s, got %s", prefixSetOrder, what, jsonKind(v))
		}
	}
	return id, nil
}

// checkOrderCoversPatch verifies that the patch list's elements (ignoring
// deletions and bare directives) appear in the order list, in the same
// relative order.
func checkOrderCoversPatch(p, order []any, id identity, path string) error {
	j := 0
	for _, v := range p {
		if m, ok := v.(map[string]any); ok {
			if d, has := m[dirPatch]; has && (d == patchDelete || d == patchReplace || len(m) == 1) {
				continue
			}
		}
		k, ok := id(v)
		matched := false
		for ok && !matched && j < len(order) {
			ko, _ := id(order[j])
			matched = ko == k
			j++
		}
		if !matched {
			return pathErrorf(path, "patch list does not match the order given by %s", prefixSetOrder)
		}
	}
	return nil
}
