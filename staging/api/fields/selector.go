package fields

import (
	"fmt"
	"slices"
	"strings"

	"platform.io/client/api/labels"
)

// Operator is the relation of a field Requirement. It is the labels
// operator type; field selectors use only Equals and NotEquals.
type Operator = labels.Operator

// The operators a field Requirement reports.
const (
	Equals       = labels.Equals
	DoubleEquals = labels.DoubleEquals
	NotEquals    = labels.NotEquals
)

// Requirement is one term of a field selector. Parse reports both "=" and
// "==" as Equals.
type Requirement struct {
	Field    string
	Operator Operator
	Value    string
}

// TransformFunc rewrites one term's field and value, for instance to map
// a legacy field name or to normalise a value. Returning an empty field and
// value drops the term.
type TransformFunc = func(field, value string) (newField, newValue string, err error)

// Selector decides whether an object's fields are selected.
type Selector interface {
	// Matches reports whether the fields satisfy every term.
	Matches(Fields) bool
	// Empty reports whether the selector has no terms and so matches
	// everything.
	Empty() bool
	// RequiresExactMatch reports the value a term "field=value" demands,
	// which lets a lister narrow to one namespace or one name.
	RequiresExactMatch(field string) (value string, found bool)
	// Transform returns a copy with every term rewritten by fn.
	Transform(fn TransformFunc) (Selector, error)
	// Requirements returns the terms in order.
	Requirements() []Requirement
	// String renders the selector in the syntax Parse reads.
	String() string
}

// hasTerm is "field=value".
type hasTerm struct{ field, value string }

func (t *hasTerm) Matches(f Fields) bool { return get(f, t.field) == t.value }
func (t *hasTerm) Empty() bool           { return false }
func (t *hasTerm) String() string        { return t.field + "=" + EscapeValue(t.value) }

func (t *hasTerm) RequiresExactMatch(field string) (string, bool) {
	if t.field == field {
		return t.value, true
	}
	return "", false
}

func (t *hasTerm) Transform(fn TransformFunc) (Selector, error) {
	field, value, err := fn(t.field, t.value)
	if err != nil {
		return nil, err
	}
	if field == "" && value == "" {
		return Everything(), nil
	}
	return &hasTerm{field: field, value: value}, nil
}

func (t *hasTerm) Requirements() []Requirement {
	return []Requirement{{Field: t.field, Operator: Equals, Value: t.value}}
}

// notHasTerm is "field!=value".
type notHasTerm struct{ field, value string }

func (t *notHasTerm) Matches(f Fields) bool { return get(f, t.field) != t.value }
func (t *notHasTerm) Empty() bool           { return false }
func (t *notHasTerm) String() string        { return t.field + "!=" + EscapeValue(t.value) }

func (t *notHasTerm) RequiresExactMatch(string) (string, bool) { return "", false }

func (t *notHasTerm) Transform(fn TransformFunc) (Selector, error) {
	field, value, err := fn(t.field, t.value)
	if err != nil {
		return nil, err
	}
	if field == "" && value == "" {
		return Everything(), nil
	}
	return &notHasTerm{field: field, value: value}, nil
}

func (t *notHasTerm) Requirements() []Requirement {
	return []Requirement{{Field: t.field, Operator: NotEquals, Value: t.value}}
}

// get reads a field, treating nil Fields as having none.
func get(f Fields, field string) string {
	if f == nil {
		return ""
	}
	return f.Get(field)
}

// andTerm holds when all its selectors do; with none it is Everything.
type andTerm []Selector

func (t andTerm) Matches(f Fields) bool {
	for _, s := range t {
		if !s.Matches(f) {
			return false
		}
	}
	return true
}

func (t andTerm) Empty() bool {
	for _, s := range t {
		if !s.Empty() {
			return false
		}
	}
	return true
}

func (t andTerm) RequiresExactMatch(field string) (string, bool) {
	for _, s := range t {
		if value, found := s.RequiresExactMatch(field); found {
			return value, true
		}
	}
	return "", false
}

func (t andTerm) Transform(fn TransformFunc) (Selector, error) {
	next := make(andTerm, 0, len(t))
	for _, s := range t {
		n, err := s.Transform(fn)
		if err != nil {
			return nil, err
		}
		if !n.Empty() {
			next = append(next, n)
		}
	}
	return next, nil
}

func (t andTerm) Requirements() []Requirement {
	var reqs []Requirement
	for _, s := range t {
		reqs = append(reqs, s.Requirements()...)
	}
	return reqs
}

// String joins the terms with ','; selectors that render as "" (such as
// Everything) leave no trace.
func (t andTerm) String() string {
	parts := make([]string, 0, len(t))
	for _, s := range t {
		if str := s.String(); str != "" {
			parts = append(parts, str)
		}
	}
	return strings.Join(parts, ",")
}

// nothingSelector matches no fields at all.
type nothingSelector struct{}

func (nothingSelector) Matches(Fields) bool                         { return false }
func (nothingSelector) Empty() bool                                 { return false }
func (nothingSelector) String() string                              { return "" }
func (nothingSelector) Requirements() []Requirement                 { return nil }
func (nothingSelector) RequiresExactMatch(string) (string, bool)    { return "", false }
func (n nothingSelector) Transform(TransformFunc) (Selector, error) { return n, nil }

// Everything returns a selector that matches all objects.
func Everything() Selector { return andTerm{} }

// Nothing returns a selector that matches no object. Its String is "", so
// it cannot be sent as a query.
func Nothing() Selector { return nothingSelector{} }

// OneTermEqualSelector returns the selector "field=value".
func OneTermEqualSelector(field, value string) Selector {
	return &hasTerm{field: field, value: value}
}

// OneTermNotEqualSelector returns the selector "field!=value".
func OneTermNotEqualSelector(field, value string) Selector {
	return &notHasTerm{field: field, value: value}
}

// AndSelectors returns the selector that holds when all of the given ones
// do.
func AndSelectors(selectors ...Selector) Selector {
	return andTerm(slices.Clone(selectors))
}

// Parse reads a selector in the syntax of the fieldSelector parameter:
// comma-separated terms "field=value", "field==value" or "field!=value",
// all of which must hold. In values, ',', '=' and '\' are written "\,",
// "\=" and "\\" (see EscapeValue). The field is everything before the first
// operator and is taken as it is, spaces included. Empty terms are skipped;
// an empty string selects everything.
func Parse(s string) (Selector, error) {
	return ParseAndTransform(s, func(f, v string) (string, string, error) { return f, v, nil })
}

// MustParse is Parse for selectors known to be valid; it panics on error.
func MustParse(s string) Selector {
	sel, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return sel
}

// ParseAndTransform parses s as Parse does, then rewrites every term with
// fn, dropping terms for which fn returns an empty field and value.
func ParseAndTransform(s string, fn TransformFunc) (Selector, error) {
	var items andTerm
	for _, part := range splitTerms(s) {
		if part == "" {
			continue
		}
		field, op, raw, ok := splitTerm(part)
		if !ok {
			return nil, fmt.Errorf("invalid field selector term %q: want field=value, field==value or field!=value", part)
		}
		value, err := UnescapeValue(raw)
		if err != nil {
			return nil, fmt.Errorf("invalid field selector term %q: value: %w", part, err)
		}
		if op == "!=" {
			items = append(items, &notHasTerm{field: field, value: value})
		} else {
			items = append(items, &hasTerm{field: field, value: value})
		}
	}
	// Sort on the rendered form so that String is canonical ("a==b" and
	// "a=b" render alike).
	slices.SortStableFunc(items, func(a, b Selector) int { return strings.Compare(a.String(), b.String()) })
	if len(items) == 1 {
		return items[0].Transform(fn)
	}
	return items.Transform(fn)
}

// splitTerms splits s on the commas that are not escaped by a backslash.
// The escapes stay in the terms.
func splitTerms(s string) []string {
	if s == "" {
		return nil
	}
	var terms []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // the next byte is escaped
		case ',':
			terms = append(terms, s[start:i])
			start = i + 1
		}
	}
	return append(terms, s[start:])
}

// splitTerm cuts a term at its first operator, trying "!=" and "==" before
// "=" at every position.
func splitTerm(term string) (field, op, value string, ok bool) {
	for i := 0; i < len(term); i++ {
		for _, candidate := range []string{"!=", "==", "="} {
			if strings.HasPrefix(term[i:], candidate) {
				return term[:i], candidate, term[i+len(candidate):], true
			}
		}
	}
	return "", "", "", false
}
