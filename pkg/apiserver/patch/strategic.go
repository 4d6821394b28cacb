package patch

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Strategic merge patch directives.
const (
	dirPatch        = "$patch"                    // replace | delete | merge
	dirRetainKeys   = "$retainKeys"               // keys of the map that survive
	prefixSetOrder  = "$setElementOrder/"         // final order of a list field
	prefixDeleteVal = "$deleteFromPrimitiveList/" // values to drop from a list

	patchReplace = "replace"
	patchDelete  = "delete"
	patchMerge   = "merge"
)

// isDirectiveKey reports whether an object key is a directive rather than
// data. Other keys starting with '$' (such as "$ref") are ordinary data.
func isDirectiveKey(k string) bool {
	return k == dirPatch || k == dirRetainKeys ||
		strings.HasPrefix(k, prefixSetOrder) || strings.HasPrefix(k, prefixDeleteVal)
}

// mergeMap merges the patch object into orig, which it modifies and
// returns. orig may be nil: merging into nothing is how a patch value that
// has no counterpart is stripped of its directives and null entries.
func mergeMap(orig, p map[string]any, n *node, path string) (map[string]any, error) {
	if d, ok := p[dirPatch]; ok {
		switch d {
		case patchReplace:
			delete(p, dirPatch)
			return mergeMap(nil, p, n, path)
		case patchDelete:
			return map[string]any{}, nil
		case patchMerge:
		default:
			return nil, pathErrorf(path, "unknown %s value %v", dirPatch, d)
		}
	}
	if orig == nil {
		orig = make(map[string]any, len(p))
	}
	if err := retainKeys(orig, p, path); err != nil {
		return nil, err
	}
	ordered, err := applyElementOrders(orig, p, n, path)
	if err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(p) {
		if isDirectiveKey(k) || ordered[k] {
			continue
		}
		if err := mergeField(orig, k, p[k], n.lookup(k), joinPath(path, k)); err != nil {
			return nil, err
		}
	}
	if err := deleteFromPrimitiveLists(orig, p, path); err != nil {
		return nil, err
	}
	return orig, nil
}

// mergeField merges the patch value pv into orig[k]; f describes the field
// and is nil when the schema does not know it.
func mergeField(orig map[string]any, k string, pv any, f *field, path string) error {
	var out any
	var err error
	switch pv := pv.(type) {
	case nil:
		delete(orig, k)
		return nil
	case map[string]any:
		if pv[dirPatch] == patchDelete {
			delete(orig, k) // documented as equivalent to a null value
			return nil
		}
		om, _ := orig[k].(map[string]any)
		if f.replaces() {
			om = nil
		}
		out, err = mergeMap(om, pv, f.schema(), path)
	case []any:
		ol, hasList := orig[k].([]any)
		out, err = mergeList(ol, hasList, pv, f, path)
	default:
		out = pv
	}
	if err != nil {
		return err
	}
	orig[k] = out
	return nil
}

// retainKeys applies a $retainKeys directive: every key of orig that is not
// listed is dropped. Listing must cover every non-null key the patch sets.
func retainKeys(orig, p map[string]any, path string) error {
	raw, ok := p[dirRetainKeys]
	if !ok {
		return nil
	}
	list, ok := raw.([]any)
	if !ok {
		return pathErrorf(path, "%s must be a list, not %s", dirRetainKeys, jsonKind(raw))
	}
	keep := make(map[string]bool, len(list))
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			return pathErrorf(path, "%s entries must be strings, not %s", dirRetainKeys, jsonKind(v))
		}
		keep[s] = true
	}
	for k, v := range p {
		if v != nil && !isDirectiveKey(k) && !keep[k] {
			return pathErrorf(path, "field %q is set by the patch but missing from %s", k, dirRetainKeys)
		}
	}
	for k := range orig {
		if !keep[k] {
			delete(orig, k)
		}
	}
	return nil
}

// applyElementOrders handles every $setElementOrder/<field> directive of p:
// the field's list is merged and then put in the requested order. It returns
// the fields it dealt with, which the caller must not merge again.
func applyElementOrders(orig, p map[string]any, n *node, path string) (map[string]bool, error) {
	var done map[string]bool
	for _, k := range sortedKeys(p) {
		name, ok := strings.CutPrefix(k, prefixSetOrder)
		if !ok {
			continue
		}
		order, ok := p[k].([]any)
		if !ok {
			return nil, pathErrorf(path, "%s must be a list, not %s", k, jsonKind(p[k]))
		}
		if err := setElementOrder(orig, p, name, order, n.lookup(name), joinPath(path, name)); err != nil {
			return nil, err
		}
		if done == nil {
			done = map[string]bool{}
		}
		done[name] = true
	}
	return done, nil
}

// setElementOrder merges p[name] into orig[name] (either may be absent) and
// orders the result by the order list, as described in the upstream design
// "preserve order in strategic merge patch".
func setElementOrder(orig, p map[string]any, name string, order []any, f *field, path string) error {
	id, err := orderIdentity(f, order, path)
	if err != nil {
		return err
	}
	live, hasLive := orig[name].([]any)
	pv, hasPatch := p[name]
	var merged []any
	if hasPatch {
		pl, ok := pv.([]any)
		if !ok {
			return pathErrorf(path, "must be a list when %s is used, not %s", prefixSetOrder+name, jsonKind(pv))
		}
		if err := checkOrderCoversPatch(pl, order, id, path); err != nil {
			return err
		}
		if merged, err = mergeList(live, hasLive, pl, f, path); err != nil {
			return err
		}
	} else if hasLive {
		merged = live
	} else {
		return nil
	}
	orig[name] = reorder(merged, order, live, id)
	return nil
}

// deleteFromPrimitiveLists applies $deleteFromPrimitiveList/<field>: every
// occurrence of the listed values is removed from orig[field]. It runs after
// the patch's own additions and orderings have been merged.
func deleteFromPrimitiveLists(orig, p map[string]any, path string) error {
	for _, k := range sortedKeys(p) {
		name, ok := strings.CutPrefix(k, prefixDeleteVal)
		if !ok {
			continue
		}
		values, ok := p[k].([]any)
		if !ok {
			return pathErrorf(path, "%s must be a list, not %s", k, jsonKind(p[k]))
		}
		if cur, ok := orig[name].([]any); ok {
			orig[name] = removeValues(cur, values)
		}
	}
	return nil
}

// sortedKeys gives a deterministic processing order for an object's keys.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func indexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// pathErrorf returns an ErrInvalidPatch naming the place in the document.
func pathErrorf(path, format string, args ...any) error {
	if path == "" {
		path = "<root>"
	}
	return invalidf("at %s: %s", path, fmt.Sprintf(format, args...))
}
