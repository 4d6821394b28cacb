package fields

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Fields is read-only access to the selectable fields of one object.
type Fields interface {
	// Has reports whether the field is present.
	Has(field string) bool
	// Get returns the field's value, or "" when it is absent.
	Get(field string) string
}

// Set is a map of field names to values. It implements Fields.
type Set map[string]string

// Has reports whether the field is present in the set.
func (s Set) Has(field string) bool {
	_, ok := s[field]
	return ok
}

// Get returns the field's value, or "" when it is absent.
func (s Set) Get(field string) string {
	return s[field]
}

// String renders the set as "f1=v1,f2=v2" with fields in ascending order
// and values escaped.
func (s Set) String() string {
	return s.AsSelector().String()
}

// AsSelector returns a selector that requires every field of the set to
// have its value. See SelectorFromSet.
func (s Set) AsSelector() Selector {
	return SelectorFromSet(s)
}

// SelectorFromSet returns a selector with one equality term per entry of
// the set, ordered by field; an empty set yields Everything.
func SelectorFromSet(s Set) Selector {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	items := make([]Selector, 0, len(keys))
	for _, k := range keys {
		items = append(items, &hasTerm{field: k, value: s[k]})
	}
	if len(items) == 1 {
		return items[0]
	}
	return andTerm(items)
}

// EscapeValue escapes a value for use in a field selector: '\' becomes
// "\\", ',' becomes "\," and '=' becomes "\=".
func EscapeValue(s string) string {
	if !strings.ContainsAny(s, `\,=`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 4)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', ',', '=':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// UnescapeValue reverses EscapeValue. Unescaped ',' or '=', a backslash
// before any other character and a trailing backslash are errors. Bytes
// other than the escapes are kept as they are, even when not valid UTF-8.
func UnescapeValue(s string) (string, error) {
	if !strings.ContainsAny(s, `\,=`) {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ',', '=':
			return "", UnescapedRuneError{Rune: rune(c), Offset: i}
		case '\\':
			if i+1 == len(s) {
				return "", InvalidEscapeSequenceError{Sequence: `\`, Offset: i}
			}
			next := s[i+1]
			if next != '\\' && next != ',' && next != '=' {
				r, _ := utf8.DecodeRuneInString(s[i+1:])
				return "", InvalidEscapeSequenceError{Sequence: `\` + string(r), Offset: i}
			}
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
