package labels

import (
	"sort"
	"strings"
)

// Labels is read-only access to a collection of labels, such as the labels
// of one object.
type Labels interface {
	// Has reports whether the label is present.
	Has(label string) bool
	// Get returns the label's value, or "" when it is absent.
	Get(label string) string
}

// Set is a map of label keys to values. It implements Labels.
type Set map[string]string

// Has reports whether the label is present in the set.
func (s Set) Has(label string) bool {
	_, ok := s[label]
	return ok
}

// Get returns the label's value, or "" when it is absent.
func (s Set) Get(label string) string {
	return s[label]
}

// String renders the set as "k1=v1,k2=v2" with keys in ascending order.
func (s Set) String() string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(s[k])
	}
	return b.String()
}

// AsSelector returns a selector that requires every label of the set to be
// present with its value. See SelectorFromSet.
func (s Set) AsSelector() Selector {
	return SelectorFromSet(s)
}

// SelectorFromSet returns a selector with one equality requirement per entry
// of the set; an empty set yields Everything. The keys and values are taken
// as they are: use ValidatedSelectorFromSet when they come from a user.
func SelectorFromSet(s Set) Selector {
	reqs := make([]Requirement, 0, len(s))
	for k, v := range s {
		reqs = append(reqs, Requirement{key: k, op: Equals, values: []string{v}})
	}
	return NewSelector(reqs...)
}

// ValidatedSelectorFromSet is SelectorFromSet, but fails when a key or value
// of the set is not a valid label key or value.
func ValidatedSelectorFromSet(s Set) (Selector, error) {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	reqs := make([]Requirement, 0, len(s))
	for _, k := range keys {
		r, err := NewRequirement(k, Equals, []string{s[k]})
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, r)
	}
	return NewSelector(reqs...), nil
}
