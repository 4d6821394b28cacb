package structural

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// validateListType reports the repeated items of an
// x-kubernetes-list-type=set list and the items of a list-type=map list
// whose keys repeat an earlier item's, as Duplicate errors at the later
// item.
func (s *Schema) validateListType(v *run, name string, list []any) {
	if s.ListType == nil {
		return
	}
	switch *s.ListType {
	case "set":
		for _, i := range duplicates(list) {
			v.add(field.TypeDuplicate, fmt.Sprintf("%s[%d]", name, i), list[i], "")
		}
	case "map":
		seen := make(map[string]bool, len(list))
		for i, e := range list {
			item, ok := e.(map[string]any)
			if !ok {
				continue // the items' type error says it
			}
			keys := make(map[string]any, len(s.ListMapKeys))
			var b strings.Builder
			for _, k := range s.ListMapKeys {
				if kv, found := item[k]; found {
					keys[k] = kv
					b.WriteString(canonical(kv))
				}
				b.WriteByte(0) // an absent key differs from every value
			}
			if seen[b.String()] {
				v.add(field.TypeDuplicate, fmt.Sprintf("%s[%d]", name, i), keys, "")
			}
			seen[b.String()] = true
		}
	}
}

// duplicates returns the indexes of the items equal to an earlier item.
func duplicates(list []any) []int {
	if len(list) < 2 {
		return nil
	}
	var dups []int
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
