package labels

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"platform.io/client/api/meta"
)

// Operator is the relation a Requirement demands between a label and its
// values. The string values match upstream's selection operators.
type Operator string

// The operators of a Requirement.
const (
	DoesNotExist Operator = "!"
	Equals       Operator = "="
	DoubleEquals Operator = "=="
	In           Operator = "in"
	NotEquals    Operator = "!="
	NotIn        Operator = "notin"
	Exists       Operator = "exists"
	GreaterThan  Operator = "gt"
	LessThan     Operator = "lt"
)

// Selector decides whether a set of labels is selected.
type Selector interface {
	// Matches reports whether the labels satisfy every requirement.
	Matches(Labels) bool
	// Empty reports whether the selector has no requirements and so
	// matches everything.
	Empty() bool
	// String renders the selector in the query syntax that Parse reads.
	String() string
	// Requirements returns a copy of the selector's requirements.
	Requirements() []Requirement
}

// Requirement is a single condition on one label key. Build it with
// NewRequirement; the zero value matches nothing.
type Requirement struct {
	key    string
	op     Operator
	values []string // sorted, without duplicates
}

// NewRequirement validates key, operator and values and returns the
// requirement. In and NotIn need at least one value; Equals, DoubleEquals and
// NotEquals exactly one; GreaterThan and LessThan exactly one integer; Exists
// and DoesNotExist none. Every key and value must be a valid label key or
// value.
func NewRequirement(key string, op Operator, values []string) (Requirement, error) {
	if err := ValidateKey(key); err != nil {
		return Requirement{}, err
	}
	switch op {
	case In, NotIn:
		if len(values) == 0 {
			return Requirement{}, fmt.Errorf("key %q: operator %q needs at least one value", key, op)
		}
	case Equals, DoubleEquals, NotEquals:
		if len(values) != 1 {
			return Requirement{}, fmt.Errorf("key %q: operator %q needs exactly one value, got %d", key, op, len(values))
		}
	case Exists, DoesNotExist:
		if len(values) != 0 {
			return Requirement{}, fmt.Errorf("key %q: operator %q takes no values, got %d", key, op, len(values))
		}
	case GreaterThan, LessThan:
		if len(values) != 1 {
			return Requirement{}, fmt.Errorf("key %q: operator %q needs exactly one value, got %d", key, op, len(values))
		}
		if _, err := strconv.ParseInt(values[0], 10, 64); err != nil {
			return Requirement{}, fmt.Errorf("key %q: operator %q needs an integer value, got %q", key, op, values[0])
		}
	default:
		return Requirement{}, fmt.Errorf("key %q: unknown operator %q", key, op)
	}
	for _, v := range values {
		if err := ValidateValue(v); err != nil {
			return Requirement{}, fmt.Errorf("key %q: %v", key, err)
		}
	}
	return Requirement{key: key, op: op, values: normalizeValues(values)}, nil
}

// normalizeValues returns a sorted copy of values without duplicates.
func normalizeValues(values []string) []string {
	if len(values) == 0 {
		return nil
	}
	out := slices.Clone(values)
	slices.Sort(out)
	return slices.Compact(out)
}

// Key returns the label key the requirement is about.
func (r Requirement) Key() string { return r.key }

// Operator returns the requirement's operator.
func (r Requirement) Operator() Operator { return r.op }

// Values returns a sorted copy of the requirement's values.
func (r Requirement) Values() []string { return slices.Clone(r.values) }

// Equal reports whether two requirements have the same key, operator and
// values.
func (r Requirement) Equal(o Requirement) bool {
	return r.key == o.key && r.op == o.op && slices.Equal(r.values, o.values)
}

// Matches reports whether the labels satisfy the requirement. NotIn and
// NotEquals are satisfied by an absent label; GreaterThan and LessThan need
// the label present with an integer value.
func (r Requirement) Matches(ls Labels) bool {
	if ls == nil {
		ls = Set(nil)
	}
	switch r.op {
	case In, Equals, DoubleEquals:
		return ls.Has(r.key) && slices.Contains(r.values, ls.Get(r.key))
	case NotIn, NotEquals:
		return !ls.Has(r.key) || !slices.Contains(r.values, ls.Get(r.key))
	case Exists:
		return ls.Has(r.key)
	case DoesNotExist:
		return !ls.Has(r.key)
	case GreaterThan, LessThan:
		if !ls.Has(r.key) || len(r.values) != 1 {
			return false
		}
		have, err := strconv.ParseInt(ls.Get(r.key), 10, 64)
		if err != nil {
			return false
		}
		want, err := strconv.ParseInt(r.values[0], 10, 64)
		if err != nil {
			return false
		}
		if r.op == GreaterThan {
			return have > want
		}
		return have < want
	}
	return false
}

// String renders the requirement in the query syntax: "!k", "k",
// "k in (a,b)", "k notin (a,b)", "k=v", "k==v", "k!=v", "k>1" or "k<1".
func (r Requirement) String() string {
	switch r.op {
	case DoesNotExist:
		return "!" + r.key
	case Exists:
		return r.key
	case In, NotIn:
		return r.key + " " + string(r.op) + " (" + strings.Join(r.values, ",") + ")"
	case GreaterThan:
		return r.key + ">" + r.firstValue()
	case LessThan:
		return r.key + "<" + r.firstValue()
	}
	return r.key + string(r.op) + r.firstValue()
}

func (r Requirement) firstValue() string {
	if len(r.values) == 0 {
		return ""
	}
	return r.values[0]
}

// compareRequirements orders requirements by key, then by rendering, which
// makes the order of a selector's requirements canonical.
func compareRequirements(a, b Requirement) int {
	if c := cmp.Compare(a.key, b.key); c != 0 {
		return c
	}
	return cmp.Compare(a.String(), b.String())
}

// internalSelector is the ANDed list of requirements, kept in canonical
// order.
type internalSelector []Requirement

// NewSelector returns the selector that ANDs the requirements; with none it
// matches everything.
func NewSelector(reqs ...Requirement) Selector {
	s := make(internalSelector, len(reqs))
	copy(s, reqs)
	slices.SortFunc(s, compareRequirements)
	return s
}

// Everything returns a selector that matches all labels.
func Everything() Selector { return internalSelector{} }

func (s internalSelector) Matches(ls Labels) bool {
	for _, r := range s {
		if !r.Matches(ls) {
			return false
		}
	}
	return true
}

func (s internalSelector) Empty() bool { return len(s) == 0 }

func (s internalSelector) String() string {
	parts := make([]string, len(s))
	for i, r := range s {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

func (s internalSelector) Requirements() []Requirement {
	out := make([]Requirement, len(s))
	copy(out, s)
	return out
}

// nothingSelector matches no labels at all.
type nothingSelector struct{}

// Nothing returns a selector that matches no labels. Its String is "", so it
// cannot be sent as a query; it is what a nil meta.LabelSelector means.
func Nothing() Selector { return nothingSelector{} }

func (nothingSelector) Matches(Labels) bool         { return false }
func (nothingSelector) Empty() bool                 { return false }
func (nothingSelector) String() string              { return "" }
func (nothingSelector) Requirements() []Requirement { return nil }

// FromLabelSelector converts a structured label selector: a nil selector
// matches nothing, an empty one everything; otherwise every matchLabels
// entry and matchExpressions item becomes one requirement.
func FromLabelSelector(ls *meta.LabelSelector) (Selector, error) {
	if ls == nil {
		return Nothing(), nil
	}
	if len(ls.MatchLabels)+len(ls.MatchExpressions) == 0 {
		return Everything(), nil
	}
	reqs := make([]Requirement, 0, len(ls.MatchLabels)+len(ls.MatchExpressions))
	keys := make([]string, 0, len(ls.MatchLabels))
	for k := range ls.MatchLabels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		r, err := NewRequirement(k, Equals, []string{ls.MatchLabels[k]})
		if err != nil {
			return nil, fmt.Errorf("matchLabels: %w", err)
		}
		reqs = append(reqs, r)
	}
	for i, expr := range ls.MatchExpressions {
		var op Operator
		switch expr.Operator {
		case meta.LabelSelectorOpIn:
			op = In
		case meta.LabelSelectorOpNotIn:
			op = NotIn
		case meta.LabelSelectorOpExists:
			op = Exists
		case meta.LabelSelectorOpDoesNotExist:
			op = DoesNotExist
		default:
			return nil, fmt.Errorf("matchExpressions[%d]: %q is not a valid label selector operator", i, expr.Operator)
		}
		r, err := NewRequirement(expr.Key, op, expr.Values)
		if err != nil {
			return nil, fmt.Errorf("matchExpressions[%d]: %w", i, err)
		}
		reqs = append(reqs, r)
	}
	return NewSelector(reqs...), nil
}
