package structural

import (
	"encoding/json"
	"fmt"
	"math"
)

// jsonType names the JSON type of a tree value the way the schema's type
// keyword does; a float64 is a number even when it holds an integer.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64, int, int32:
		return "integer"
	case float64, float32, json.Number:
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// number returns v as a float64 and whether v is a number at all.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case float32:
		return float64(n), true
	}
	return 0, false
}

// isInteger reports whether v is an integer: an int64, or a float64 with
// no fractional part (JSON's 1.0), as upstream accepts for type integer.
func isInteger(v any) bool {
	switch n := v.(type) {
	case int64, int, int32:
		return true
	case float64:
		return n == math.Trunc(n) && math.Abs(n) < 1<<53
	}
	return false
}

// typeMatches reports whether v is of the schema type t.
func typeMatches(t string, v any) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "integer":
		return isInteger(v)
	case "number":
		_, ok := number(v)
		return ok
	}
	return false
}

// equal compares JSON trees, numbers by value (int64 1 equals float64 1).
func equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, found := bm[k]
			if !found || !equal(av, bv) {
				return false
			}
		}
		return true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !equal(a[i], bl[i]) {
				return false
			}
		}
		return true
	case string, bool, nil:
		return a == b
	}
	an, aok := number(a)
	bn, bok := number(b)
	return aok && bok && an == bn
}
