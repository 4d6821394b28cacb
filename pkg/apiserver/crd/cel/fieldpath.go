package cel

import (
	"errors"
	"fmt"
	"strings"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// pathStep is one element of a rule's fieldPath: a property, or a key
// of a map.
type pathStep struct {
	name string
	key  bool
}

// parseFieldPath checks a fieldPath (".spec.replicas", ".labels['a.b']")
// against the schema below n, as upstream: only properties and map keys,
// no list indexes.
func parseFieldPath(p string, n *node) ([]pathStep, error) {
	var steps []pathStep
	for rest := p; rest != ""; {
		var name string
		switch {
		case strings.HasPrefix(rest, "['"):
			end := strings.Index(rest[2:], "']")
			if end < 0 {
				return nil, fmt.Errorf("fieldPath must be a valid path: unterminated [' in %q", p)
			}
			name, rest = rest[2:2+end], rest[2+end+2:]
		case rest[0] == '[':
			return nil, errors.New("fieldPath must be a valid path: list indexes are not supported")
		case rest[0] == '.':
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			name, rest = rest[1:1+end], rest[1+end:]
		default:
			return nil, fmt.Errorf("fieldPath must be a valid path: expected [ or . but got: %s", rest)
		}
		if name == "" {
			return nil, fmt.Errorf("fieldPath must be a valid path: empty field name in %q", p)
		}
		switch n.kind {
		case kindObject:
			child, ok := n.props[name]
			if !ok {
				return nil, fmt.Errorf("fieldPath must be a valid path: does not refer to a valid field: %s", name)
			}
			steps, n = append(steps, pathStep{name: name}), child
		case kindMap:
			steps, n = append(steps, pathStep{name: name, key: true}), n.elem
		default:
			return nil, fmt.Errorf("fieldPath must be a valid path: %s is not an object or map", name)
		}
	}
	return steps, nil
}

// at appends the steps to fld.
func at(fld *field.Path, steps []pathStep) *field.Path {
	for _, s := range steps {
		if s.key {
			fld = fld.Key(s.name)
		} else {
			fld = fld.Child(s.name)
		}
	}
	return fld
}
