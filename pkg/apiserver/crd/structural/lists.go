package structural

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// smallList is the length up to which duplicates are found by comparing
// pairs, which allocates nothing; longer lists index their items.
const smallList = 16

// validateListType reports the repeated items of an
// x-kubernetes-list-type=set list and the items of a list-type=map list
// whose keys repeat an earlier item's, as Duplicate errors at the later
// item.
func (s *Schema) validateListType(v *run, list []any) {
	if s.ListType == nil || len(list) < 2 {
		return
	}
	switch *s.ListType {
	case "set":
		for _, i := range duplicates(list) {
			v.add(field.TypeDuplicate, itemPath(v, i), list[i], "")
		}
	case "map":
		for _, i := range s.duplicateKeys(list) {
			keys := map[string]any{}
			item := list[i].(map[string]any)
			for _, k := range s.ListMapKeys {
				if kv, found := item[k]; found {
					keys[k] = kv
				}
			}
			v.add(field.TypeDuplicate, itemPath(v, i), keys, "")
		}
	}
}

// itemPath renders the path of item i of the list being checked.
func itemPath(v *run, i int) string {
	v.push(pathElem{index: i, isItem: true})
	defer v.pop()
	return v.name()
}

// duplicateKeys returns the indexes of the object items whose map keys
// equal an earlier item's; an absent key differs from every value.
// Items that are not objects are skipped: their type error says it.
func (s *Schema) duplicateKeys(list []any) []int {
	var dups []int
	if len(list) <= smallList {
		for i, e := range list {
			a, ok := e.(map[string]any)
			if !ok {
				continue
			}
			for _, f := range list[:i] {
				if b, ok := f.(map[string]any); ok && s.sameKeys(a, b) {
					dups = append(dups, i)
					break
				}
			}
		}
		return dups
	}
	seen := make(map[string]bool, len(list))
	var b strings.Builder
	for i, e := range list {
		item, ok := e.(map[string]any)
		if !ok {
			continue
		}
		b.Reset()
		for _, k := range s.ListMapKeys {
			if kv, found := item[k]; found {
				b.WriteString(canonical(kv))
			}
			b.WriteByte(0)
		}
		if seen[b.String()] {
			dups = append(dups, i)
		}
		seen[b.String()] = true
	}
	return dups
}

func (s *Schema) sameKeys(a, b map[string]any) bool {
	for _, k := range s.ListMapKeys {
		av, afound := a[k]
		bv, bfound := b[k]
		if afound != bfound || (afound && !equal(av, bv)) {
			return false
		}
	}
	return true
}

// duplicates returns the indexes of the items equal to an earlier item.
func duplicates(list []any) []int {
	var dups []int
	if len(list) <= smallList {
		for i := range list {
			for j := range i {
				if equal(list[i], list[j]) {
					dups = append(dups, i)
					break
				}
			}
		}
		return dups
	}
	seen := make(map[string]bool, len(list))
	for i, e := range list {
		k := canonical(e)
		if seen[k] {
			dups = append(dups, i)
		}
		seen[k] = true
	}
	return dups
}

// canonical renders a JSON tree so that equal trees (numbers by value)
// render equally: scalars are tagged by type, anything else is JSON with
// sorted keys.
func canonical(v any) string {
	switch x := v.(type) {
	case string:
		return "s" + x
	case bool:
		return "b" + strconv.FormatBool(x)
	case nil:
		return "z"
	case int64:
		return "n" + strconv.FormatInt(x, 10)
	case float64:
		if isInteger(x) {
			return "n" + strconv.FormatInt(int64(x), 10)
		}
		return "n" + strconv.FormatFloat(x, 'g', -1, 64)
	}
	b, err := json.Marshal(normalizeNumbers(v))
	if err != nil {
		return fmt.Sprintf("?%v", v)
	}
	return "j" + string(b)
}

// normalizeNumbers copies v with integral float64s turned into int64, so
// that JSON renders 1 and 1.0 alike.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalizeNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalizeNumbers(e)
		}
		return out
	case float64:
		if isInteger(x) {
			return int64(x)
		}
	}
	return v
}
