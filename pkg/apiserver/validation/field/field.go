// Package field describes validation failures tied to a field path
// ("spec.containers[0].image"), and turns a list of them into the causes of
// a 422 Invalid Status.
package field

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"platform.io/client/api/meta"
)

// Path is a field path built from the root, e.g. NewPath("spec").Child("containers").Index(0).
type Path struct {
	parent *Path
	name   string
	index  string
}

// NewPath starts a path at name.
func NewPath(name string, more ...string) *Path {
	p := &Path{name: name}
	for _, m := range more {
		p = p.Child(m)
	}
	return p
}

// Child appends a field name.
func (p *Path) Child(name string, more ...string) *Path {
	c := &Path{parent: p, name: name}
	for _, m := range more {
		c = c.Child(m)
	}
	return c
}

// Index appends a list index.
func (p *Path) Index(i int) *Path { return &Path{parent: p, index: strconv.Itoa(i)} }

// Key appends a map key.
func (p *Path) Key(k string) *Path { return &Path{parent: p, index: k} }

// String renders the path: names joined by dots, indexes and keys in brackets.
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	var elems []*Path
	for e := p; e != nil; e = e.parent {
		elems = append(elems, e)
	}
	var b strings.Builder
	for i := len(elems) - 1; i >= 0; i-- {
		e := elems[i]
		if e.index != "" {
			b.WriteString("[" + e.index + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.name)
	}
	return b.String()
}

// Type classifies an Error; its value is the StatusCause reason.
type Type meta.CauseType

// The error types.
const (
	TypeNotFound     = Type(meta.CauseTypeFieldValueNotFound)
	TypeRequired     = Type(meta.CauseTypeFieldValueRequired)
	TypeDuplicate    = Type(meta.CauseTypeFieldValueDuplicate)
	TypeInvalid      = Type(meta.CauseTypeFieldValueInvalid)
	TypeNotSupported = Type(meta.CauseTypeFieldValueNotSupported)
	TypeForbidden    = Type(meta.CauseTypeFieldValueForbidden)
	TypeTooLong      = Type(meta.CauseTypeFieldValueTooLong)
	TypeTooMany      = Type(meta.CauseTypeFieldValueTooMany)
	TypeInternal     = Type(meta.CauseTypeInternal)
	// TypeTypeInvalid is a value of the wrong JSON type (an object where
	// a string belongs); it reads "Invalid value" like TypeInvalid.
	TypeTypeInvalid = Type(meta.CauseTypeTypeInvalid)
)

var typeText = map[Type]string{
	TypeNotFound:     "Not found",
	TypeRequired:     "Required value",
	TypeDuplicate:    "Duplicate value",
	TypeInvalid:      "Invalid value",
	TypeNotSupported: "Unsupported value",
	TypeForbidden:    "Forbidden",
	TypeTooLong:      "Too long",
	TypeTooMany:      "Too many",
	TypeInternal:     "Internal error",
	TypeTypeInvalid:  "Invalid value",
}

// Error is one validation failure.
type Error struct {
	Type     Type
	Field    string
	BadValue any
	Detail   string
}

// hasValue reports whether the message shows the bad value.
func (e *Error) hasValue() bool {
	switch e.Type {
	case TypeInvalid, TypeTypeInvalid, TypeNotSupported, TypeDuplicate, TypeNotFound:
		return true
	case TypeTooMany:
		return e.BadValue != nil // upstream shows the count when it is known
	}
	return false
}

// Message renders the error without its field, as a StatusCause message.
func (e *Error) Message() string {
	s := typeText[e.Type]
	if e.hasValue() {
		s += ": " + render(e.BadValue)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e *Error) Error() string { return e.Field + ": " + e.Message() }

func render(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case nil:
		return "null"
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprintf("%#v", v)
}

// Constructors for each type.

func Invalid(p *Path, value any, detail string) *Error {
	return &Error{Type: TypeInvalid, Field: p.String(), BadValue: value, Detail: detail}
}

// InvalidType is a value of the wrong JSON type.
func InvalidType(p *Path, value any, detail string) *Error {
	return &Error{Type: TypeTypeInvalid, Field: p.String(), BadValue: value, Detail: detail}
}

func Required(p *Path, detail string) *Error {
	return &Error{Type: TypeRequired, Field: p.String(), Detail: detail}
}

func Duplicate(p *Path, value any) *Error {
	return &Error{Type: TypeDuplicate, Field: p.String(), BadValue: value}
}

func NotFound(p *Path, value any) *Error {
	return &Error{Type: TypeNotFound, Field: p.String(), BadValue: value}
}

func Forbidden(p *Path, detail string) *Error {
	return &Error{Type: TypeForbidden, Field: p.String(), Detail: detail}
}

func TooLong(p *Path, maxLen int) *Error {
	return &Error{Type: TypeTooLong, Field: p.String(), Detail: fmt.Sprintf("may not be more than %d bytes", maxLen)}
}

func TooMany(p *Path, got, limit int) *Error {
	return &Error{Type: TypeTooMany, Field: p.String(), Detail: fmt.Sprintf("has %d items, at most %d allowed", got, limit)}
}

// NotSupported lists the allowed values in its detail.
func NotSupported[T ~string](p *Path, value T, allowed []T) *Error {
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = strconv.Quote(string(a))
	}
	return &Error{Type: TypeNotSupported, Field: p.String(), BadValue: string(value),
		Detail: "supported values: " + strings.Join(quoted, ", ")}
}

// ErrorList is a list of validation failures; empty means valid.
type ErrorList []*Error

// Causes converts the list to StatusCauses.
func (l ErrorList) Causes() []meta.StatusCause {
	out := make([]meta.StatusCause, len(l))
	for i, e := range l {
		out[i] = meta.StatusCause{Type: meta.CauseType(e.Type), Message: e.Message(), Field: e.Field}
	}
	return out
}
